import { byStart, coverSameKeys, KeyRange, splitsAndMerges } from './key-ranges';
import {
  BelowMinSegmentsError,
  RangesDoNotMatchError,
  SegmentNotActiveError,
} from './scale.errors';

/*
 * Scaling a stream by hand (docs/extensions.md section 7): seal chosen active segments and open
 * new ones over exactly their key space. Pure: the service reads the current epoch under the
 * stream's lock, asks `planScale` what the scale makes of it, and writes that.
 */

/** A segment as the API shows it (the `Segment` of the scaling events). */
export interface Segment extends KeyRange {
  number: number;
  /** When it was opened: its epoch's time, ms since 1970. */
  startTime: number;
}

/** At most this many new ranges in one scale. */
export const MAX_NEW_RANGES = 1000;

/** At most this many segments sealed by one scale. */
export const MAX_SEALED_SEGMENTS = 1000;

export interface ScaleRequest {
  /** The numbers of the active segments to seal. */
  sealedSegments: number[];
  /** The ranges of the new segments, in the order they are numbered. */
  newRanges: KeyRange[];
}

/** The current epoch of a stream, as a scale starts from it. */
export interface ScaleStart {
  epoch: number;
  /** Its active segments, in any order. */
  active: Segment[];
  /** The first number the stream has never used. */
  nextNumber: number;
  /** The scaling policy's least number of segments. */
  minSegments: number;
}

/** What a scale makes: the next epoch, and how it differs from the current one. */
export interface ScaleOutcome {
  epoch: number;
  timestamp: number;
  /** Every segment active after the scale, by keyStart. */
  segments: Segment[];
  /** By number. */
  sealedSegments: number[];
  /** In the order of the request's `newRanges`, so by number. */
  newSegments: Segment[];
  splits: number;
  merges: number;
}

const segment = (number: number, startTime: number, range: KeyRange): Segment => ({
  number,
  startTime,
  keyStart: range.keyStart,
  keyEnd: range.keyEnd,
});

/**
 * The scale of `request` applied to `start` at `time`, checked in the order of the rules: the
 * sealed segments must be active (412), the new ranges must cover exactly their key space (400),
 * and the policy's minimum must still hold (412). The request's own shape (rule 1) is the DTO's.
 */
export function planScale(start: ScaleStart, request: ScaleRequest, time: number): ScaleOutcome {
  const active = new Map(start.active.map((s) => [s.number, s]));
  const inactive = request.sealedSegments.filter((number) => !active.has(number));
  if (inactive.length > 0) throw new SegmentNotActiveError(inactive, start.epoch);

  const sealed = request.sealedSegments.map((number) => active.get(number)!);
  if (!coverSameKeys(sealed, request.newRanges)) {
    throw new RangesDoNotMatchError(sealed, request.newRanges);
  }
  const count = start.active.length - sealed.length + request.newRanges.length;
  if (count < start.minSegments) throw new BelowMinSegmentsError(count, start.minSegments);

  const newSegments = request.newRanges.map((range, i) =>
    segment(start.nextNumber + i, time, range),
  );
  const sealedNumbers = new Set(request.sealedSegments);
  const survivors = start.active.filter((s) => !sealedNumbers.has(s.number));
  const segments = byStart([...survivors, ...newSegments]);
  return {
    epoch: start.epoch + 1,
    timestamp: time,
    segments,
    sealedSegments: [...sealedNumbers].sort((a, b) => a - b),
    newSegments,
    // Survivors overlap only themselves in both epochs: only what was sealed and opened can
    // split or merge, so the count costs the size of the scale, not of the stream.
    ...splitsAndMerges(sealed, newSegments),
  };
}

/**
 * For each range that overlaps another of the list, the index of one it overlaps; ranges that
 * are not valid (bounds not numbers, or not increasing) are left out, as their own rules report
 * them. Sorted by start, a range overlaps an earlier one exactly when it starts before the
 * furthest end so far: O(n log n), whatever the list.
 */
export function overlappingRanges(ranges: readonly unknown[]): Map<number, number> {
  const valid = ranges.flatMap((range, index) => (isRange(range) ? [{ ...range, index }] : []));
  const found = new Map<number, number>();
  let furthest: (KeyRange & { index: number }) | undefined;
  for (const range of byStart(valid)) {
    if (furthest && range.keyStart < furthest.keyEnd) {
      found.set(range.index, furthest.index);
      found.set(furthest.index, found.get(furthest.index) ?? range.index);
    }
    if (!furthest || range.keyEnd > furthest.keyEnd) furthest = range;
  }
  return found;
}

function isRange(value: unknown): value is KeyRange {
  if (typeof value !== 'object' || value === null) return false;
  const { keyStart, keyEnd } = value as Record<string, unknown>;
  return (
    typeof keyStart === 'number' &&
    typeof keyEnd === 'number' &&
    Number.isFinite(keyStart) &&
    Number.isFinite(keyEnd) &&
    keyStart < keyEnd
  );
}
