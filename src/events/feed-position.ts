/**
 * Positions in the change feed (docs/extensions.md section 8), as pure rules.
 *
 * Event ids are taken at commit, one transaction at a time (see migration ChangeEvents): the
 * ids that are visible are always 1..newest, less those retention deleted from the start. A
 * reader therefore never has to wait for an id below one it has seen; {@link contiguousRun}
 * still takes only the run that follows a position without a hole, so that a hole (which this
 * way of taking ids cannot make) would stop a watcher instead of making it skip an event.
 */

const INT64_MAX = 9_223_372_036_854_775_807n;

/** What a position must be, in the words of a 400 (or of the CLI's usage error). */
export const POSITION_RULE = `an event id: a decimal integer from 0 to ${INT64_MAX}`;

/** A position as a client writes it: a decimal int64 (`0` is before every event). */
export function parsePosition(text: string): bigint | undefined {
  if (!/^\d{1,19}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value <= INT64_MAX ? value : undefined;
}

/** What is kept of the feed: the oldest event still kept (newest + 1 when none is), the newest. */
export interface FeedBounds {
  oldest: bigint;
  newest: bigint;
}

/**
 * Whether a client may follow from `since`: `expired` when events after it were deleted (it
 * would miss them), `beyond` when no event has that id yet.
 */
export function positionProblem(
  since: bigint,
  { oldest, newest }: FeedBounds,
): 'expired' | 'beyond' | undefined {
  if (since > newest) return 'beyond';
  if (since < oldest - 1n) return 'expired';
  return undefined;
}

/**
 * Of `ids` (ascending), those that follow `after` without a hole: `after + 1`, `after + 2`, ...
 * up to the first one missing.
 */
export function contiguousRun(after: bigint, ids: readonly bigint[]): number {
  let next = after + 1n;
  let count = 0;
  for (const id of ids) {
    if (id !== next) break;
    count++;
    next++;
  }
  return count;
}
