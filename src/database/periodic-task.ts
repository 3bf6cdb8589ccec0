import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';

export interface PeriodicTaskOptions {
  /** What a pass does, for the log line of a failed one ("deleting expired events"). */
  what: string;
  /** How often a pass runs. */
  intervalMs: number;
  logger: Logger;
}

/**
 * Background work of every instance: one pass at a time, every `intervalMs`; a failed pass is
 * logged and the next one tries again. A feature's task is a provider that extends this class:
 * it starts when the application has started, and stops (a pass in progress let finish) before
 * the pool closes.
 */
export abstract class PeriodicTask implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(private readonly schedule: PeriodicTaskOptions) {}

  /** One pass of the work. */
  protected abstract pass(): Promise<unknown>;

  onApplicationBootstrap(): void {
    const { what, intervalMs, logger } = this.schedule;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.pass()
        .catch((error: unknown) => logger.warn(`${what} failed: ${String(error)}`))
        .finally(() => (this.running = undefined));
    }, intervalMs).unref();
  }

  /** Stops the timer and lets a pass in progress finish (before the pool closes). */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
