import { DATABASE_UNAVAILABLE_WORDS } from '../api/problem-words';
import { outage } from '../state/outage';
import { useStore } from '../state/use-store';

/** Says once, at the top, that reads are waiting for the service to come back. */
export function OutageBanner() {
  const { waiting, unreachable } = useStore(outage);
  return (
    <div class="outage" role="status" aria-live="polite">
      {waiting > 0 &&
        (unreachable ? 'The service cannot be reached, retrying' : DATABASE_UNAVAILABLE_WORDS)}
    </div>
  );
}
