import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import { answer, api } from '../api/client';
import type { StreamProperty } from '../api/types';
import { placeViolations, STREAM_FORM_PLACES } from '../api/policy-violations';
import { RefusalMessage } from '../components/refusal-message';
import { FormSection } from '../components/screen';
import { useAction } from '../state/use-action';
import { StreamConfigForm, streamConfiguration, streamForm } from './stream-config';
import { StreamConfigFields } from './stream-config-fields';
import { retentionSummary, scalingSummary } from './stream-summary';

/**
 * The stream's configuration, editable. Save sends `If-Match` with the entity tag read with it:
 * if someone else changed the stream meanwhile, the API answers 412, and the section says so
 * and shows the current values (whose tag the next Save sends, should the person still want
 * theirs).
 */
export function StreamConfigSection({
  scope,
  stream,
  configuration,
  etag,
  sealed,
  onSaved,
}: {
  scope: string;
  stream: string;
  configuration: StreamProperty;
  etag?: string;
  sealed: boolean;
  onSaved: () => void;
}) {
  const [form, setForm] = useState<StreamConfigForm>(() => streamForm(configuration));
  const [version, setVersion] = useState(etag);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [current, setCurrent] = useState<StreamProperty>();
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const path = { scopeName: scope, streamName: stream };

  const readCurrent = async () => {
    const { data, response } = await answer(
      api.GET('/v1/scopes/{scopeName}/streams/{streamName}', { params: { path } }),
    );
    setCurrent(data);
    setVersion(response.headers.get('ETag') ?? undefined);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const read = streamConfiguration(form);
    setProblems('problems' in read ? read.problems : {});
    if (!('body' in read)) return;
    const done = await action.run(async () => {
      try {
        const { response } = await answer(
          api.PUT('/v1/scopes/{scopeName}/streams/{streamName}', {
            params: { path, header: version ? { 'If-Match': version } : undefined },
            body: read.body,
          }),
        );
        setVersion(response.headers.get('ETag') ?? undefined);
        setCurrent(undefined);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'PRECONDITION_FAILED') await readCurrent();
        throw error;
      }
    });
    if (done) {
      setSaved(true);
      onSaved();
    }
  };

  const placed = placeViolations(action.error?.problem?.violations, STREAM_FORM_PLACES);
  const errors = { ...action.error?.fields, ...placed.fields, ...problems };
  const conflict = action.error?.code === 'PRECONDITION_FAILED';
  return (
    <FormSection title="Configuration" id="configuration-heading" onSubmit={save}>
      {sealed && <p class="notice">The stream is sealed: its configuration cannot change.</p>}
      <StreamConfigFields form={form} onChange={setForm} errors={errors} disabled={sealed} />
      {conflict && current ? (
        <div class="error" role="alert">
          <p>
            Someone else changed the stream since you opened it: nothing was saved. Its current
            values are below; Save again to replace them with yours.
          </p>
          <CurrentValues stream={current} onUse={() => setForm(streamForm(current))} />
        </div>
      ) : (
        <RefusalMessage error={action.error} placed={placed} />
      )}
      <button type="submit" disabled={sealed || action.busy}>
        Save
      </button>
      {saved && (
        <p role="status" class="done">
          Saved.
        </p>
      )}
    </FormSection>
  );
}

function CurrentValues({ stream, onUse }: { stream: StreamProperty; onUse: () => void }) {
  return (
    <>
      <dl class="facts" aria-label="Current values">
        <dt>Scaling policy</dt>
        <dd>{scalingSummary(stream.scalingPolicy)}</dd>
        <dt>Retention</dt>
        <dd>{retentionSummary(stream.retentionPolicy)}</dd>
        <dt>Tags</dt>
        <dd>{stream.tags.join(', ') || 'none'}</dd>
      </dl>
      <button type="button" onClick={onUse}>
        Use the current values
      </button>
    </>
  );
}
