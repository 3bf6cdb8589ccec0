import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { IdempotencyRepository } from './idempotency.repository';

/** How often expired keys are looked for: they only cost space, so rarely is enough. */
const PURGE_INTERVAL_MS = 5 * 60_000;
/** Rows per statement: each batch is its own short transaction holding few locks. */
export const PURGE_BATCH_SIZE = 1000;
/** Batches per pass: a large backlog is worked off over several passes. */
const BATCHES_PER_PASS = 100;

/**
 * Deletes expired Idempotency-Key entries in the background, in bounded batches. Every instance
 * runs one; their batches skip each other's rows, so they share the work without waiting.
 */
@Injectable()
export class IdempotencyPurgeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyPurgeService.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly records: IdempotencyRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.purge()
        .catch((error: unknown) => {
          this.logger.warn(`purging expired idempotency keys failed: ${String(error)}`);
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, PURGE_INTERVAL_MS).unref();
  }

  /** Stops the timer and lets a pass in progress finish before the pool closes. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * One pass: batches of at most `batchSize` expired entries until none is left or the pass's
   * budget is spent.
   *
   * @returns how many entries were deleted.
   */
  async purge(batchSize = PURGE_BATCH_SIZE): Promise<number> {
    let total = 0;
    for (let batch = 0; batch < BATCHES_PER_PASS; batch++) {
      const deleted = await this.records.deleteExpired(
        this.config.IDEMPOTENCY_TTL_HOURS,
        batchSize,
      );
      total += deleted;
      if (deleted < batchSize) break;
    }
    return total;
  }
}
