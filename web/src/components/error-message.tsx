import type { ApiError } from '../api/api-error';
import { useAccessExplanation } from '../session/use-access-explanation';

/**
 * Why something failed, in words, where it failed; announced to screen readers. A 403 also says
 * what the caller's access has instead of the missing permission, once the service explains it.
 */
export function ErrorMessage({ error, id }: { error?: ApiError | string; id?: string }) {
  const explanation = useAccessExplanation(error);
  if (!error) return null;
  const message = typeof error === 'string' ? error : error.message;
  return (
    <p class="error" role="alert" id={id}>
      {explanation ? `${message} ${explanation}` : message}
    </p>
  );
}
