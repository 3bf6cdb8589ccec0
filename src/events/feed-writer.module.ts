import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository';

/**
 * The writing side of the change feed, for the audit's `ChangeRecorder`; the reading side (the route, the
 * listener, retention) is `EventsModule`, which needs the access check that needs the audit.
 */
@Module({
  providers: [EventsRepository],
  exports: [EventsRepository],
})
export class FeedWriterModule {}
