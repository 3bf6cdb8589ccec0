import type { ApiError } from '../api/api-error';
import type { PlacedViolations } from '../api/policy-violations';
import { ErrorMessage } from './error-message';

/**
 * What a form says of a refused change as a whole, announced: when the fields show why (a 400's
 * invalid fields, or a policy's violations placed next to theirs), that they do, with the
 * violations no field shows (too many streams); otherwise the refusal in words.
 */
export function RefusalMessage({
  error,
  placed,
}: {
  error?: ApiError;
  /** The refusal's policy violations, placed by the form. */
  placed: PlacedViolations;
}) {
  if (!error) return null;
  const byPolicy = error.code === 'POLICY_VIOLATION';
  const fieldsSay = Object.keys(error.fields).length > 0 || Object.keys(placed.fields).length > 0;
  if (byPolicy && placed.unplaced.length && !fieldsSay) {
    return (
      <p class="error" role="alert">
        The scope&apos;s policy does not allow this: {placed.unplaced.join(' ')}
      </p>
    );
  }
  if (!fieldsSay) return <ErrorMessage error={error} />;
  return (
    <p class="error" role="alert">
      {byPolicy
        ? "The scope's policy does not allow some fields: see the messages next to them."
        : 'The service refused some fields: see the messages next to them.'}
      {placed.unplaced.length > 0 && ` Also: ${placed.unplaced.join(' ')}`}
    </p>
  );
}
