import { KeyRange, splitsAndMerges } from './key-ranges';

/** An epoch of a stream: a set of segments that was active from `timestamp` on. */
export interface Epoch {
  epoch: number;
  /** Creation time, ms since 1970. */
  timestamp: number;
}

/** A segment's life: created in `createdIn`, sealed by epoch `sealedIn` (absent while active). */
export interface SegmentRecord extends KeyRange {
  number: number;
  startTime: number;
  createdIn: number;
  sealedIn?: number;
}

export interface ScaleRecord {
  timestamp: number;
  segmentList: { number: number; startTime: number; keyStart: number; keyEnd: number }[];
  splits: number;
  merges: number;
}

/**
 * The epochs a window [from, to] shows, ascending: every epoch created inside it, preceded by
 * the one active at `from` when that was created strictly before `from`.
 */
export function selectWindow(epochs: readonly Epoch[], from: number, to: number): Epoch[] {
  const sorted = [...epochs].sort((a, b) => a.timestamp - b.timestamp);
  const inside = sorted.filter((e) => e.timestamp >= from && e.timestamp <= to);
  // The epoch active at `from` began before it, unless one begins exactly at `from`.
  const activeAtFrom = sorted.filter((e) => e.timestamp <= from).at(-1);
  return activeAtFrom && activeAtFrom.timestamp < from ? [activeAtFrom, ...inside] : inside;
}

const activeIn = (segment: SegmentRecord, epoch: number): boolean =>
  segment.createdIn <= epoch && (segment.sealedIn === undefined || segment.sealedIn > epoch);

/**
 * One record per epoch, with its segments (by number) and the splits and merges since the
 * record before it; the first record of an answer has none.
 */
export function buildScaleRecords(
  epochs: readonly Epoch[],
  segments: readonly SegmentRecord[],
): ScaleRecord[] {
  let previous: SegmentRecord[] | undefined;
  return epochs.map(({ epoch, timestamp }) => {
    const current = segments.filter((s) => activeIn(s, epoch)).sort((a, b) => a.number - b.number);
    const { splits, merges } = previous
      ? splitsAndMerges(previous, current)
      : { splits: 0, merges: 0 };
    previous = current;
    return {
      timestamp,
      segmentList: current.map(({ number, startTime, keyStart, keyEnd }) => ({
        number,
        startTime,
        keyStart,
        keyEnd,
      })),
      splits,
      merges,
    };
  });
}

/** When a scale happens: now, but always after the epoch before it, so times strictly increase. */
export const nextEpochTime = (previous: number, now: number): number => Math.max(now, previous + 1);
