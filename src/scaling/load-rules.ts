import type { KeyRange } from './key-ranges';
import type { ScaleRequest, Segment } from './manual-scale';

/*
 * Scaling by load (docs/extensions.md section 11): what a segment's reported rates make of it,
 * by the reference's rules (its segment store's AutoScaleProcessor and its controller's
 * AutoScaleTask). Pure: the service reads the stream and the segments' marks under the stream's
 * lock, asks `decide` for each report in turn, and writes what it answers.
 */

const MINUTE = 60_000;

/** One segment's moving averages of traffic, in the stream's policy's unit. */
export interface LoadReport {
  segment: number;
  /** When the reporter began measuring the segment (the start of its averages), ms since 1970. */
  since: number;
  twoMinuteRate: number;
  fiveMinuteRate: number;
  tenMinuteRate: number;
  twentyMinuteRate: number;
}

/** The settings of scaling by load, in ms (`AUTOSCALE_*`). */
export interface LoadSettings {
  /** A segment reported on for no longer than this is left alone. */
  cooldownMs: number;
  /** After a scale up (or down) of a segment, another is muted this long. */
  muteMs: number;
  /** How long a segment wanted down stays marked cold. */
  coldMs: number;
}

/** What scaling by load remembers of a segment, shared by every instance. */
export interface SegmentMarks {
  /** When it was last scaled up (its start time until then), ms since 1970. */
  lastUp: number;
  /** When it was last wanted down and acted on (its start time until then). */
  lastDown: number;
  /** Until when it counts as cold, if it was marked so. */
  coldUntil?: number;
}

/** The marks of a segment that has none stored: both mutes start at its start time. */
export const marksOf = (segment: Segment, stored?: SegmentMarks): SegmentMarks =>
  stored ?? { lastUp: segment.startTime, lastDown: segment.startTime };

/** The rule that wants a segment up or down, in words (an audit row's and the console's). */
export type Wanted =
  | { direction: 'none'; reason: 'COOLING_DOWN' | 'BELOW_THRESHOLD' }
  | { direction: 'up'; splits: number; because: string }
  | { direction: 'down'; because: string };

const UP_RULES = [
  { rate: 'twoMinuteRate', words: 'two-minute', times: 5, age: 2 * MINUTE },
  { rate: 'fiveMinuteRate', words: 'five-minute', times: 2, age: 5 * MINUTE },
  { rate: 'tenMinuteRate', words: 'ten-minute', times: 1, age: 10 * MINUTE },
] as const;

/** Steps 2 and 3: whether the rates want the segment up, down, or neither. */
export function wantedOf(
  report: LoadReport,
  now: number,
  target: number,
  cooldownMs: number,
): Wanted {
  const age = now - report.since;
  if (age <= cooldownMs) return { direction: 'none', reason: 'COOLING_DOWN' };
  const crossed = UP_RULES.find(
    (rule) => report[rule.rate] > rule.times * target && age > rule.age,
  );
  if (crossed) {
    const highest = Math.max(report.twoMinuteRate, report.fiveMinuteRate, report.tenMinuteRate);
    return {
      direction: 'up',
      splits: Math.max(2, Math.floor(highest / target)),
      because: `${crossed.words} rate ${report[crossed.rate]} > ${crossed.times} x ${target}`,
    };
  }
  const allBelow =
    report.twoMinuteRate < target &&
    report.fiveMinuteRate < target &&
    report.tenMinuteRate < target &&
    report.twentyMinuteRate < target / 2;
  if (allBelow && age > 20 * MINUTE) {
    return {
      direction: 'down',
      because: `rates below ${target}, twenty-minute rate ${report.twentyMinuteRate} < ${target} / 2`,
    };
  }
  return { direction: 'none', reason: 'BELOW_THRESHOLD' };
}

/**
 * Step 5: `n` ranges tiling `range`, range `i` starting at `keyStart + i * (width / n)` and
 * ending where the next starts, the last at exactly `keyEnd`: the same numbers end one range
 * and start the next, so the split covers the segment's keys bound for bound.
 */
export function splitRange(range: KeyRange, n: number): KeyRange[] {
  const width = range.keyEnd - range.keyStart;
  const starts = Array.from({ length: n }, (_, i) => range.keyStart + i * (width / n));
  return starts.map((keyStart, i) => ({
    keyStart,
    keyEnd: i === n - 1 ? range.keyEnd : starts[i + 1],
  }));
}

/** How many segments a scale up makes: what the rates ask, at most the scale factor, at least 2. */
export const splitCount = (asked: number, scaleFactor: number): number =>
  Math.min(Math.max(2, asked), Math.max(2, scaleFactor));

/** A stream as scaling by load sees it now. */
export interface LoadedStream {
  /** Its active segments, by keyStart. */
  active: Segment[];
  /** The stored marks of its active segments, by number (absent: none stored). */
  marks: ReadonlyMap<number, SegmentMarks>;
  minSegments: number;
  targetRate: number;
  scaleFactor: number;
}

/** What a report does to an active segment of a stream with a rate policy (steps 2 to 6). */
export type Decision =
  | { outcome: 'none'; reason: 'COOLING_DOWN' | 'BELOW_THRESHOLD' }
  | { outcome: 'muted'; wanted: 'up' | 'down' }
  | ScaleDecision
  | ColdDecision;

/** A scale up or down: what to seal and open, and the marks to store if it is made. */
export interface ScaleDecision {
  outcome: 'scaledUp' | 'scaledDown';
  scale: ScaleRequest;
  because: string;
  marks: Map<number, SegmentMarks>;
}

/** A segment marked cold that could not merge (step 6), with the mark to store. */
export interface ColdDecision {
  outcome: 'markedCold';
  reason: 'AT_MIN_SEGMENTS' | 'NO_COLD_NEIGHBOUR';
  marks: Map<number, SegmentMarks>;
}

/**
 * The decision for one report of an active segment of `stream` (the caller answers `ignored`
 * for a sealed stream, a fixed policy and a segment not active). Mutes apply to both
 * directions; a silent segment goes down by {@link coldDecision} without them.
 */
export function decide(
  stream: LoadedStream,
  segment: Segment,
  report: LoadReport,
  now: number,
  settings: LoadSettings,
): Decision {
  const wanted = wantedOf(report, now, stream.targetRate, settings.cooldownMs);
  if (wanted.direction === 'none') return { outcome: 'none', reason: wanted.reason };
  const marks = marksOf(segment, stream.marks.get(segment.number));
  if (wanted.direction === 'up') {
    if (!(now - marks.lastUp > settings.muteMs)) return { outcome: 'muted', wanted: 'up' };
    const n = splitCount(wanted.splits, stream.scaleFactor);
    return {
      outcome: 'scaledUp',
      scale: { sealedSegments: [segment.number], newRanges: splitRange(segment, n) },
      because: `${wanted.because}: split into ${n}`,
      marks: new Map([[segment.number, { ...marks, lastUp: now, lastDown: now }]]),
    };
  }
  if (!(now - marks.lastDown > settings.muteMs)) return { outcome: 'muted', wanted: 'down' };
  return coldDecision(stream, segment, now, settings, wanted.because, { ...marks, lastDown: now });
}

/**
 * Step 6: the segment is marked cold until `now + coldMs`, and merges with those of its active
 * neighbours that are cold now, never below `minSegments`: when the stream has exactly one
 * segment more than its minimum, two merge at most (the first two by keyStart).
 */
export function coldDecision(
  stream: LoadedStream,
  segment: Segment,
  now: number,
  settings: LoadSettings,
  because: string,
  marks: SegmentMarks = marksOf(segment, stream.marks.get(segment.number)),
): Decision {
  const marked = new Map([[segment.number, { ...marks, coldUntil: now + settings.coldMs }]]);
  const { active, minSegments } = stream;
  if (active.length <= minSegments) {
    return { outcome: 'markedCold', reason: 'AT_MIN_SEGMENTS', marks: marked };
  }
  const at = active.findIndex((s) => s.number === segment.number);
  const left = active[at - 1];
  const right = active[at + 1];
  const cold = (s: Segment | undefined): s is Segment =>
    s !== undefined && (stream.marks.get(s.number)?.coldUntil ?? -Infinity) > now;
  const merged = [
    ...(left && left.keyEnd === segment.keyStart && cold(left) ? [left] : []),
    segment,
    ...(right && right.keyStart === segment.keyEnd && cold(right) ? [right] : []),
  ];
  if (merged.length < 2)
    return { outcome: 'markedCold', reason: 'NO_COLD_NEIGHBOUR', marks: marked };
  // Merging k segments into one leaves k - 1 fewer: never below the minimum.
  const joined = merged.slice(0, Math.min(merged.length, active.length - minSegments + 1));
  return {
    outcome: 'scaledDown',
    scale: {
      sealedSegments: joined.map((s) => s.number),
      newRanges: [{ keyStart: joined[0].keyStart, keyEnd: joined[joined.length - 1].keyEnd }],
    },
    because: `${because}: ${joined.length} cold segments merged`,
    marks: marked,
  };
}
