import type { Logger } from '@nestjs/common';
import { PeriodicTask } from './periodic-task';

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
 * Deletes what has expired, in the background, in bounded batches (see {@link PeriodicTask}).
 * Every instance runs one: each batch is one statement, so several instances share the work. A
 * feature's purge is a provider that extends this class.
 */
export class PeriodicPurge extends PeriodicTask {
  constructor(private readonly options: PeriodicPurgeOptions) {
    super({
      what: `deleting ${options.what}`,
      intervalMs: options.intervalMs,
      logger: options.logger,
    });
  }

  protected pass(): Promise<number> {
    return this.purge();
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
