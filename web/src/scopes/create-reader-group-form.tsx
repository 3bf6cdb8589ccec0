import { useState } from 'preact/hooks';
import { answer, api } from '../api/client';
import { streamNameProblem } from '../api/names';
import { ErrorMessage } from '../components/error-message';
import { TextAreaField, TextField } from '../components/field';
import { FormSection } from '../components/screen';
import { Link } from '../routing/router';
import { pathOf } from '../routing/routes';
import { useAction } from '../state/use-action';

/** Creates a reader group over streams of this scope (`stream`) or others (`scope/stream`). */
export function CreateReaderGroupForm({
  scope,
  onCreated,
}: {
  scope: string;
  onCreated: () => void;
}) {
  const [name, setName] = useState('');
  const [streams, setStreams] = useState('');
  const [nameProblem, setNameProblem] = useState<string>();
  const [created, setCreated] = useState<string>();
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    setCreated(undefined);
    const problem = streamNameProblem(name);
    setNameProblem(problem && `The name ${problem}`);
    if (problem) return;
    const list = streams
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const done = await action.run(() =>
      answer(
        api.POST('/v1/scopes/{scopeName}/readergroups', {
          params: { path: { scopeName: scope } },
          body: { readerGroupName: name, streams: list },
        }),
      ),
    );
    if (done) {
      setCreated(name);
      setName('');
      setStreams('');
      onCreated();
    }
  };
  const fields = action.error?.fields ?? {};
  return (
    <FormSection title="Create reader group" id="create-reader-group-heading" onSubmit={submit}>
      <TextField
        label="Reader group name"
        value={name}
        onValue={setName}
        error={nameProblem ?? fields.readerGroupName}
      />
      <TextAreaField
        label="Streams to read"
        rows={3}
        value={streams}
        onValue={setStreams}
        error={fields.streams}
        hint="One per line: a stream of this scope, or scope/stream"
      />
      {action.error && Object.keys(fields).length === 0 && <ErrorMessage error={action.error} />}
      <button type="submit" disabled={action.busy}>
        Create reader group
      </button>
      {created && (
        <p role="status" class="done">
          Created reader group{' '}
          <Link href={pathOf({ screen: 'readerGroup', scope, group: created })}>{created}</Link>.
        </p>
      )}
    </FormSection>
  );
}
