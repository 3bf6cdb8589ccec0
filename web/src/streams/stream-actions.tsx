import { answer, api } from '../api/client';
import type { StreamDescription } from '../api/types';
import { ConfirmButton } from '../components/confirm-button';
import { ErrorMessage } from '../components/error-message';
import { navigate } from '../routing/router';
import { pathOf } from '../routing/routes';
import { useAction } from '../state/use-action';

/** Seal the stream; once sealed, delete it (each asked once more). */
export function StreamActions({
  scope,
  stream,
  state,
  onChanged,
}: {
  scope: string;
  stream: string;
  state: StreamDescription['state'];
  onChanged: () => void;
}) {
  const action = useAction();
  const path = { scopeName: scope, streamName: stream };
  const seal = async () => {
    const done = await action.run(() =>
      answer(
        api.PUT('/v1/scopes/{scopeName}/streams/{streamName}/state', {
          params: { path },
          body: { streamState: 'SEALED' },
        }),
      ),
    );
    if (done) onChanged();
  };
  const remove = async () => {
    const done = await action.run(() =>
      answer(api.DELETE('/v1/scopes/{scopeName}/streams/{streamName}', { params: { path } })),
    );
    if (done) navigate(pathOf({ screen: 'scope', scope }));
  };
  const sealed = state === 'SEALED';
  return (
    <div class="actions">
      <ConfirmButton
        label="Seal"
        question={`Seal stream ${stream}? Nothing can be written to it afterwards.`}
        onConfirm={() => void seal()}
        disabled={sealed || action.busy}
      />
      <ConfirmButton
        label="Delete stream"
        question={`Delete stream ${stream}? This cannot be undone.`}
        onConfirm={() => void remove()}
        disabled={!sealed || action.busy}
      />
      {!sealed && <span class="hint">A stream is deleted once sealed.</span>}
      <ErrorMessage error={action.error} />
    </div>
  );
}
