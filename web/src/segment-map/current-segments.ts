import type { ScaleMetadata, Segment } from '../api/types';
import type { SegmentHistory } from './segment-history';

/**
 * Whether the last of the scaling records is the epoch whose segments `current` lists: the same
 * segment numbers (each epoch seals and opens at least one, and numbers are never used twice).
 */
export function endsWithCurrent(records: readonly ScaleMetadata[], current: readonly Segment[]) {
  const last = records.reduce<ScaleMetadata | undefined>(
    (latest, record) => (!latest || record.timestamp >= latest.timestamp ? record : latest),
    undefined,
  );
  if (!last || last.segmentList.length !== current.length) return false;
  const numbers = new Set(current.map((segment) => segment.number));
  return last.segmentList.every((segment) => numbers.has(segment.number));
}

/** When the current epoch began: the latest start of its segments. */
export const currentEpochTime = (current: readonly Segment[]): number =>
  current.reduce((latest, segment) => Math.max(latest, segment.startTime), 0);

/**
 * The history with the active segments as `GET .../segments` answers them: each runs from its
 * start with no end, over the answer's very bounds; one the records lack is added. What the map
 * draws as active is then exactly the API's active segments.
 */
export function withActiveSegments(
  history: SegmentHistory,
  current: readonly Segment[],
): SegmentHistory {
  const spans = new Map(history.segments.map((span) => [span.number, span]));
  for (const segment of current) {
    const span = spans.get(segment.number);
    spans.set(segment.number, {
      predecessors: [],
      successors: [],
      firstRecord: history.times.length,
      ...span,
      number: segment.number,
      keyStart: segment.keyStart,
      keyEnd: segment.keyEnd,
      start: segment.startTime,
      end: undefined,
    });
  }
  return { ...history, segments: [...spans.values()].sort((a, b) => a.number - b.number) };
}
