import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PeriodicPurge } from '../database/periodic-purge';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * Deletes expired Idempotency-Key entries in the background, every five minutes (they only cost
 * space, so rarely is enough), in batches of 1,000; the batches of several instances skip each
 * other's rows, so they share the work without waiting.
 */
@Injectable()
export class IdempotencyPurgeService extends PeriodicPurge {
  constructor(records: IdempotencyRepository, config: AppConfig) {
    super({
      what: 'expired idempotency keys',
      intervalMs: 5 * 60_000,
      batchSize: 1000,
      batchesPerPass: 100,
      deleteBatch: (size) => records.deleteExpired(config.IDEMPOTENCY_TTL_HOURS, size),
      logger: new Logger(IdempotencyPurgeService.name),
    });
  }
}
