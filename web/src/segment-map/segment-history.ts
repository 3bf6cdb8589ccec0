import type { ScaleMetadata, Segment } from '../api/types';

/** One segment over its life: the rectangle the map draws and the row the table shows. */
export interface SegmentSpan {
  number: number;
  keyStart: number;
  keyEnd: number;
  /** When it began (ms since 1970). */
  start: number;
  /** When the epoch that sealed it began; undefined while it is active (or beyond the records). */
  end?: number;
  /** The segments it replaced: sealed when it began, over key ranges it overlaps. */
  predecessors: number[];
  /** The segments that replaced it: begun when it was sealed, over key ranges it overlaps. */
  successors: number[];
  /** The index of the first record that shows it (0: it may have begun before the records). */
  firstRecord: number;
}

/** A stream's scaling records as segments, and the number of segments active after each. */
export interface SegmentHistory {
  /** By number. */
  segments: SegmentSpan[];
  /** When each record's epoch began. */
  times: number[];
  /** How many segments each record's epoch had. */
  counts: number[];
}

const byKeyStart = (a: Segment, b: Segment) => a.keyStart - b.keyStart;

/** Whether two key ranges [start, end) share any key. */
export const overlaps = (a: Segment | SegmentSpan, b: Segment | SegmentSpan): boolean =>
  a.keyStart < b.keyEnd && b.keyStart < a.keyEnd;

/**
 * Links each sealed segment with the new ones that overlap it. Both lists are sorted by key
 * and do not overlap within themselves (each is part of an epoch), so one sweep finds every
 * pair: whichever range ends first cannot overlap anything after the other's current range.
 */
function link(sealed: Segment[], created: Segment[], spans: Map<number, SegmentSpan>): void {
  let i = 0;
  let j = 0;
  while (i < sealed.length && j < created.length) {
    if (overlaps(sealed[i], created[j])) {
      spans.get(sealed[i].number)!.successors.push(created[j].number);
      spans.get(created[j].number)!.predecessors.push(sealed[i].number);
    }
    if (sealed[i].keyEnd <= created[j].keyEnd) i++;
    else j++;
  }
}

/**
 * The segments of a stream's scaling records (`GET .../scaling-events`, oldest first), each from
 * its start to the time of the record that no longer has it. Predecessors and successors come
 * from consecutive records: what one record sealed and the next began, where their ranges
 * overlap. The first record's segments have no predecessors here (they may be older).
 */
export function segmentHistory(records: readonly ScaleMetadata[]): SegmentHistory {
  const ordered = [...records].sort((a, b) => a.timestamp - b.timestamp);
  const spans = new Map<number, SegmentSpan>();
  let previous: Segment[] = [];
  ordered.forEach((record, index) => {
    const current = [...record.segmentList].sort(byKeyStart);
    const now = new Set(current.map((segment) => segment.number));
    const before = new Set(previous.map((segment) => segment.number));
    const sealed = previous.filter((segment) => !now.has(segment.number));
    const created = current.filter((segment) => !before.has(segment.number));
    for (const segment of sealed) spans.get(segment.number)!.end = record.timestamp;
    for (const segment of created) {
      spans.set(segment.number, {
        number: segment.number,
        keyStart: segment.keyStart,
        keyEnd: segment.keyEnd,
        start: segment.startTime,
        predecessors: [],
        successors: [],
        firstRecord: index,
      });
    }
    if (index > 0) link(sealed, created, spans);
    previous = current;
  });
  return {
    segments: [...spans.values()].sort((a, b) => a.number - b.number),
    times: ordered.map((record) => record.timestamp),
    counts: ordered.map((record) => record.segmentList.length),
  };
}

/** Whether a segment was active at `time`. */
export const activeAt = (span: SegmentSpan, time: number): boolean =>
  span.start <= time && (span.end === undefined || time < span.end);
