import { InvalidRequestError } from '../common/domain-error';

/** The largest segment number: the contract's `Segment.number` is an int32. */
export const MAX_SEGMENT_NUMBER = 2_147_483_647;

/**
 * A segment number in a path (docs/extensions.md section 7): digits, up to the int32 maximum.
 * Its value decides, not its length: `007` is 7, and so is `00000000007` (as `at` and the other
 * integers of a query read their digits).
 */
export function toSegmentNumber(value: string): number {
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(number <= MAX_SEGMENT_NUMBER)) {
    throw InvalidRequestError.of('number', `must be an integer from 0 to ${MAX_SEGMENT_NUMBER}`);
  }
  return number;
}
