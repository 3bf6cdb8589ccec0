import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PeriodicPurge } from '../database/periodic-purge';
import { EventsRepository } from './events.repository';

/**
 * Deletes the change feed's events older than EVENTS_RETENTION_HOURS in the background, every
 * five minutes, in batches of 1,000, only from the start of the feed. Two instances that delete
 * the same batch at once wait for each other's rows and the second deletes nothing.
 */
@Injectable()
export class FeedRetention extends PeriodicPurge {
  constructor(events: EventsRepository, config: AppConfig) {
    super({
      what: 'expired events',
      intervalMs: 5 * 60_000,
      batchSize: 1000,
      batchesPerPass: 100,
      deleteBatch: (size) => events.deleteExpired(config.EVENTS_RETENTION_HOURS, size),
      logger: new Logger('ChangeFeed'),
    });
  }
}
