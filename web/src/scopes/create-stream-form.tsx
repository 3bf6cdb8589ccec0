import { useState } from 'preact/hooks';
import { answer, api } from '../api/client';
import { MAX_STREAM_NAME_LENGTH, streamNameProblem } from '../api/names';
import { placeViolations, STREAM_FORM_PLACES } from '../api/policy-violations';
import type { ScopePolicy } from '../api/types';
import { RefusalMessage } from '../components/refusal-message';
import { TextField } from '../components/field';
import { FormSection } from '../components/screen';
import { Link } from '../routing/router';
import { pathOf } from '../routing/routes';
import { useAction } from '../state/use-action';
import { createStreamRequest, newStreamForm, StreamConfigForm } from '../streams/stream-config';
import { StreamConfigFields } from '../streams/stream-config-fields';
import { streamRules, withRule } from './policy-words';

/**
 * Creates a stream with every field of the API's create request; each field states the rule of
 * the scope's policy it must follow, and each field's error from the API's 400, or the policy's
 * violation from its 422, shows next to that field.
 */
export function CreateStreamForm({
  scope,
  policy,
  onCreated,
}: {
  scope: string;
  /** The scope's policy, whose rules each field states (and a refusal's violations). */
  policy?: ScopePolicy;
  onCreated: () => void;
}) {
  const [name, setName] = useState('');
  const [form, setForm] = useState<StreamConfigForm>(newStreamForm);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<string>();
  const action = useAction();
  const placed = placeViolations(action.error?.problem?.violations, STREAM_FORM_PLACES);
  const errors = { ...action.error?.fields, ...placed.fields, ...problems };
  const rules = policy ? streamRules(policy) : {};
  const submit = async (event: Event) => {
    event.preventDefault();
    setCreated(undefined);
    action.clear();
    const nameProblem = streamNameProblem(name);
    const request = createStreamRequest(name, form);
    const found = {
      ...(nameProblem ? { streamName: `The name ${nameProblem}` } : {}),
      ...('problems' in request ? request.problems : {}),
    };
    setProblems(found);
    if (Object.keys(found).length || !('body' in request)) return;
    const done = await action.run(() =>
      answer(
        api.POST('/v1/scopes/{scopeName}/streams', {
          params: { path: { scopeName: scope } },
          body: request.body,
        }),
      ),
    );
    if (done) {
      setCreated(name);
      setName('');
      setForm(newStreamForm());
      onCreated();
    }
  };
  return (
    <FormSection title="Create stream" id="create-stream-heading" onSubmit={submit}>
      <TextField
        label="Stream name"
        value={name}
        onValue={setName}
        error={errors.streamName}
        hint={withRule(
          `1 to ${MAX_STREAM_NAME_LENGTH} characters of A-Z a-z 0-9 . -`,
          rules.streamNames,
        )}
      />
      <StreamConfigFields form={form} onChange={setForm} errors={errors} rules={rules} />
      <RefusalMessage error={action.error} placed={placed} />
      <button type="submit" disabled={action.busy}>
        Create stream
      </button>
      {created && (
        <p role="status" class="done">
          Created stream{' '}
          <Link href={pathOf({ screen: 'stream', scope, stream: created })}>{created}</Link>.
        </p>
      )}
    </FormSection>
  );
}
