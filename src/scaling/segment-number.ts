import { InvalidRequestError } from '../common/domain-error';

/** The largest segment number: the contract's `Segment.number` is an int32. */
export const MAX_SEGMENT_NUMBER = 2_147_483_647;

/** A segment number in a path (docs/extensions.md section 7): digits, up to the int32 maximum. */
export function toSegmentNumber(value: string, field = 'number'): number {
  const number = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(number <= MAX_SEGMENT_NUMBER)) {
    throw InvalidRequestError.of(field, `must be an integer from 0 to ${MAX_SEGMENT_NUMBER}`);
  }
  return number;
}
