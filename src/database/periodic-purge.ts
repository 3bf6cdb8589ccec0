import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';

export interface PeriodicPurgeOptions {
  /** What is deleted, for the log line of a failed pass ("expired events"). */
  what: string;
  /** How often a pass runs. */
  intervalMs: number;
  /** Rows per statement: each batch is its own short transaction holding few locks. */
  batchSize: number;
  /** Batches per pass: a large backlog is worked off over several passes. */
  batchesPerPass: number;
  /** Deletes at most `size` expired rows in one statement; how many it deleted. */
  deleteBatch: (size: number) => Promise<number>;
  logger: Logger;
}

/**
 * Deletes what has expired, in the background, in bounded batches: one pass at a time, every
 * `intervalMs`; a failed pass is logged and the next one tries again. Every instance runs one:
 * each batch is one statement, so several instances share the work. A feature's purge is a
 * provider that extends this class: it starts when the application has started, and stops (a
 * pass in progress let finish) before the pool closes.
 */
export class PeriodicPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(private readonly options: PeriodicPurgeOptions) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.purge()
        .catch((error: unknown) => {
          this.options.logger.warn(`deleting ${this.options.what} failed: ${String(error)}`);
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, this.options.intervalMs).unref();
  }

  /** Stops the timer and lets a pass in progress finish (before the pool closes). */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass: batches until none is left or the pass's budget is spent; how many it deleted. */
  async purge(batchSize = this.options.batchSize): Promise<number> {
    let total = 0;
    for (let batch = 0; batch < this.options.batchesPerPass; batch++) {
      const deleted = await this.options.deleteBatch(batchSize);
      total += deleted;
      if (deleted < batchSize) break;
    }
    return total;
  }
}
