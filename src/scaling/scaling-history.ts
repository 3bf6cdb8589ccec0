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
export function selectWindow<E extends Epoch>(epochs: readonly E[], from: number, to: number): E[] {
  const sorted = [...epochs].sort((a, b) => a.timestamp - b.timestamp);
  const inside = sorted.filter((e) => e.timestamp >= from && e.timestamp <= to);
  // The epoch active at `from` began before it, unless one begins exactly at `from`.
  const activeAtFrom = sorted.filter((e) => e.timestamp <= from).at(-1);
  return activeAtFrom && activeAtFrom.timestamp < from ? [activeAtFrom, ...inside] : inside;
}

const activeIn = (segment: SegmentRecord, epoch: number): boolean =>
  segment.createdIn <= epoch && (segment.sealedIn === undefined || segment.sealedIn > epoch);

function groupBy<K>(segments: readonly SegmentRecord[], key: (s: SegmentRecord) => K) {
  const groups = new Map<K, SegmentRecord[]>();
  for (const segment of segments) {
    const group = groups.get(key(segment));
    if (group) group.push(segment);
    else groups.set(key(segment), [segment]);
  }
  return groups;
}

/**
 * One record per epoch, with its segments (by number) and the splits and merges since the
 * record before it; the first record of an answer has none. The epochs are consecutive (a
 * window), so the active set is carried from one to the next instead of recomputed.
 */
export function buildScaleRecords(
  epochs: readonly Epoch[],
  segments: readonly SegmentRecord[],
): ScaleRecord[] {
  if (epochs.length === 0) return [];
  const created = groupBy(segments, (s) => s.createdIn);
  const sealed = groupBy(segments, (s) => s.sealedIn);
  const active = new Map<number, SegmentRecord>(
    segments.filter((s) => activeIn(s, epochs[0].epoch)).map((s) => [s.number, s]),
  );
  let previous: SegmentRecord[] | undefined;
  return epochs.map(({ epoch, timestamp }, i) => {
    if (i > 0) {
      sealed.get(epoch)?.forEach((s) => active.delete(s.number));
      created.get(epoch)?.forEach((s) => active.set(s.number, s));
    }
    const current = [...active.values()].sort((a, b) => a.number - b.number);
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
