import { useCallback, useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';

export interface Action {
  busy: boolean;
  error?: ApiError;
  /** Runs the change; true when it succeeded, else the error is kept to be shown. */
  run(change: () => Promise<unknown>): Promise<boolean>;
  clear: () => void;
}

/**
 * A change the person asked for (a create, a save, a delete): one at a time, its error kept to
 * be shown where the change was asked for. Changes are not retried by themselves: the person
 * decides, having read why it failed.
 */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = useCallback(async (change: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await change();
      return true;
    } catch (thrown) {
      setError(ApiError.of(thrown));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(undefined), []);
  return { busy, error, run, clear };
}
