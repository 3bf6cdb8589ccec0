import { activeAt, SegmentSpan } from './segment-history';

/** The part of time and of the key space the map shows, and the pixels it has for them. */
export interface View {
  /** ms since 1970, the left edge. */
  from: number;
  /** ms since 1970, the right edge. */
  to: number;
  width: number;
  height: number;
}

/** A segment's rectangle in the plot's pixels: time to the right, the key space upwards. */
export interface Rect {
  number: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** What was drawn last: the plot's place on the canvas, its view, and every rectangle. */
export interface DrawnMap {
  plot: { left: number; top: number };
  view: View;
  rects: Rect[];
  /** The segments drawn as selected to scale, by number. */
  selected: number[];
}

/** A rectangle narrower than this would vanish: it is drawn this wide. */
export const MIN_RECT_WIDTH = 1;

export const timeToX = (time: number, view: View): number =>
  ((time - view.from) / (view.to - view.from)) * view.width;

export const xToTime = (x: number, view: View): number =>
  view.from + (x / view.width) * (view.to - view.from);

/** Key 0 at the bottom, 1 at the top. */
export const keyToY = (key: number, view: View): number => (1 - key) * view.height;

/**
 * The rectangles of the segments the view shows: from start to end (`now` for an active
 * segment), from keyStart up to keyEnd, cut at the view's edges, at least
 * {@link MIN_RECT_WIDTH} wide. Segments wholly outside the time window are left out.
 */
export function segmentRects(segments: readonly SegmentSpan[], view: View, now: number): Rect[] {
  const rects: Rect[] = [];
  for (const span of segments) {
    const end = span.end ?? Math.max(now, span.start);
    if (end < view.from || span.start > view.to) continue;
    const left = Math.max(0, timeToX(span.start, view));
    const right = Math.min(view.width, timeToX(end, view));
    const top = keyToY(span.keyEnd, view);
    rects.push({
      number: span.number,
      x: Math.min(left, view.width - MIN_RECT_WIDTH),
      y: top,
      w: Math.max(MIN_RECT_WIDTH, right - left),
      h: keyToY(span.keyStart, view) - top,
    });
  }
  return rects;
}

/** The segment under a point of the plot (the last drawn, so the one on top), if any. */
export function segmentAt(rects: readonly Rect[], x: number, y: number): number | undefined {
  for (let i = rects.length - 1; i >= 0; i--) {
    const r = rects[i];
    if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h) return r.number;
  }
  return undefined;
}

/**
 * Where the epochs' lines go: the x of each time inside the view, to whole pixels, at most one
 * per pixel (ten thousand epochs in a few hundred pixels draw a few hundred lines).
 */
export function epochLines(times: readonly number[], view: View): number[] {
  const xs: number[] = [];
  let last = -1;
  for (const time of times) {
    if (time < view.from || time > view.to) continue;
    const x = Math.round(timeToX(time, view));
    if (x !== last) xs.push(x);
    last = x;
  }
  return xs;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [
  1,
  2,
  5,
  10,
  20,
  50,
  100,
  200,
  500,
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
  91 * DAY,
  182 * DAY,
  365 * DAY,
];

/** Round times for the time axis: at most `count` of them, a whole step apart. */
export function timeTicks(from: number, to: number, count: number): number[] {
  const span = to - from;
  if (!(span > 0) || count < 1) return [];
  const step = STEPS.find((s) => span / s <= count) ?? Math.ceil(span / count / DAY) * DAY;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}

export type Direction = 'earlier' | 'later' | 'up' | 'down';

/**
 * The segment the arrow keys lead to from `current`: later, its first successor; earlier, its
 * first predecessor; up or down, the segment just above or below it at the moment it began
 * (or at `time`, where the window starts, when that is later).
 */
export function neighbour(
  segments: readonly SegmentSpan[],
  current: SegmentSpan,
  direction: Direction,
  time = current.start,
): number | undefined {
  if (direction === 'later') return current.successors[0];
  if (direction === 'earlier') return current.predecessors[0];
  const at = Math.max(current.start, time);
  let best: SegmentSpan | undefined;
  for (const span of segments) {
    if (span === current || !activeAt(span, at)) continue;
    if (direction === 'up' && span.keyStart >= current.keyEnd) {
      if (!best || span.keyStart < best.keyStart) best = span;
    } else if (direction === 'down' && span.keyEnd <= current.keyStart) {
      if (!best || span.keyEnd > best.keyEnd) best = span;
    }
  }
  return best?.number;
}
