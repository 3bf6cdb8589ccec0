import { answer, api } from '../api/client';
import { ConfirmButton } from '../components/confirm-button';
import { ErrorMessage } from '../components/error-message';
import { useAction } from '../state/use-action';

/**
 * Deletes a scope after asking once more; the API's 412 (the scope still has streams) is said
 * in those words, next to the button.
 */
export function DeleteScopeButton({ scope, onDeleted }: { scope: string; onDeleted: () => void }) {
  const action = useAction();
  const remove = async () => {
    const done = await action.run(() =>
      answer(api.DELETE('/v1/scopes/{scopeName}', { params: { path: { scopeName: scope } } })),
    );
    if (done) onDeleted();
  };
  return (
    <span class="action">
      <ConfirmButton
        label="Delete scope"
        question={`Delete scope ${scope}? This cannot be undone.`}
        onConfirm={() => void remove()}
        disabled={action.busy}
      />
      <ErrorMessage error={action.error} />
    </span>
  );
}
