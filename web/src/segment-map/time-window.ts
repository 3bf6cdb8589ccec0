/** The stretch of time the map shows and loads the scaling events of (ms since 1970). */
export interface TimeWindow {
  from: number;
  to: number;
}

/** The smallest window the map zooms into: a second. */
export const MIN_WINDOW_MS = 1000;

const whole = (value: string | null): number | undefined =>
  value !== null && /^\d+$/.test(value) ? Number(value) : undefined;

/**
 * The window the address names (`from` and `to`, ms since 1970; either may be left out), or
 * undefined for the whole history (also when the window ends before it starts).
 */
export function windowOf(query: URLSearchParams, now: number): TimeWindow | undefined {
  const from = whole(query.get('from'));
  const to = whole(query.get('to'));
  if (from === undefined && to === undefined) return undefined;
  const window = { from: from ?? 0, to: to ?? now };
  return window.to > window.from ? window : undefined;
}

/**
 * The window of the whole history: from its first record (the stream's creation) to now, a
 * second at least (the active segments always reach the right edge).
 */
export function wholeHistory(times: readonly number[], createdAt: number, now: number): TimeWindow {
  return { from: Math.min(times[0] ?? createdAt, createdAt, now - MIN_WINDOW_MS), to: now };
}

/** The window `factor` times as long (below 1: zoomed in), around the same middle. */
export function zoom(window: TimeWindow, factor: number): TimeWindow {
  const middle = (window.from + window.to) / 2;
  const half = Math.max(MIN_WINDOW_MS, (window.to - window.from) * factor) / 2;
  return { from: Math.max(0, Math.round(middle - half)), to: Math.round(middle + half) };
}

/** The window moved by `fraction` of its length (negative: earlier). */
export function pan(window: TimeWindow, fraction: number): TimeWindow {
  const shift = Math.round((window.to - window.from) * fraction);
  const from = Math.max(0, window.from + shift);
  return { from, to: from + (window.to - window.from) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a `datetime-local` input shows it (local time, to the second). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

/** What a `datetime-local` input holds, in ms since 1970; undefined when empty or invalid. */
export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}
