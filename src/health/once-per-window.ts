/**
 * One computation shared by every caller within a window: callers that arrive while it runs
 * wait for it, callers that arrive within `windowMs` of its start take its result, and a
 * different `key` (a shutdown beginning) starts a new one at once. A failed computation is
 * not kept. A window of 0 shares nothing: each caller computes.
 */
export class OncePerWindow<T> {
  private latest?: { key: string; startedAt: number; value: Promise<T> };

  constructor(
    private readonly windowMs: number,
    private readonly compute: () => Promise<T>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(key = ''): Promise<T> {
    if (this.windowMs === 0) return this.compute();
    const at = this.now();
    const latest = this.latest;
    if (latest && latest.key === key && at - latest.startedAt < this.windowMs) return latest.value;
    const value = this.compute();
    const entry = { key, startedAt: at, value };
    this.latest = entry;
    value.catch(() => {
      if (this.latest === entry) this.latest = undefined;
    });
    return value;
  }
}
