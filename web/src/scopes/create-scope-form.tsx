import { useState } from 'preact/hooks';
import { answer, api } from '../api/client';
import { MAX_SCOPE_NAME_LENGTH, scopeNameProblem } from '../api/names';
import { ErrorMessage } from '../components/error-message';
import { TextField } from '../components/field';
import { Link } from '../routing/router';
import { pathOf } from '../routing/routes';
import { useAction } from '../state/use-action';

/** Creates a scope; the name is checked by the API's own rule before it is sent. */
export function CreateScopeForm({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [checked, setChecked] = useState<string>();
  const [created, setCreated] = useState<string>();
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    setCreated(undefined);
    const problem = scopeNameProblem(name);
    setChecked(problem && `The name ${problem}`);
    if (problem) return;
    const done = await action.run(() =>
      answer(api.POST('/v1/scopes', { body: { scopeName: name } })),
    );
    if (done) {
      setCreated(name);
      setName('');
      onCreated();
    }
  };
  return (
    <form class="inline-form" onSubmit={(event) => void submit(event)} noValidate>
      <TextField
        label="Scope name"
        value={name}
        onValue={(value) => {
          setName(value);
          setChecked(undefined);
        }}
        error={checked ?? action.error?.fields.scopeName}
        hint={`1 to ${MAX_SCOPE_NAME_LENGTH} characters of A-Z a-z 0-9 . -`}
      />
      <button type="submit" disabled={action.busy}>
        Create scope
      </button>
      {action.error && !action.error.fields.scopeName && <ErrorMessage error={action.error} />}
      {created && (
        <p role="status" class="done">
          Created scope <Link href={pathOf({ screen: 'scope', scope: created })}>{created}</Link>.
        </p>
      )}
    </form>
  );
}
