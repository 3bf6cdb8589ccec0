/** How often a client failed to log in, within a window that starts at its first failure. */
interface Failures {
  count: number;
  since: number;
}

/**
 * Slows down password guessing: after `maxFailures` failed logins within `windowMs`, a client
 * is refused until the window ends. Per instance, in memory: it protects this process's CPU
 * (scrypt is expensive on purpose), it holds no data.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `client` may try again, or 0 when it may now. */
  blockedFor(client: string): number {
    const entry = this.current(client);
    if (!entry || entry.count < this.maxFailures) return 0;
    return Math.ceil((entry.since + this.windowMs - this.now()) / 1000);
  }

  failed(client: string): void {
    const entry = this.current(client);
    if (entry) entry.count++;
    else this.failures.set(client, { count: 1, since: this.now() });
    if (this.failures.size > 10_000) this.forgetExpired();
  }

  succeeded(client: string): void {
    this.failures.delete(client);
  }

  private current(client: string): Failures | undefined {
    const entry = this.failures.get(client);
    if (entry && this.now() - entry.since >= this.windowMs) {
      this.failures.delete(client);
      return undefined;
    }
    return entry;
  }

  private forgetExpired(): void {
    for (const client of [...this.failures.keys()]) this.current(client);
  }
}
