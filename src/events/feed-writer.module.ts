import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository';
import { FeedRecorder } from './feed-recorder.service';

/**
 * The writing side of the change feed, for `AuditedChanges`; the reading side (the route, the
 * listener, retention) is `EventsModule`, which needs the access check that needs the audit.
 */
@Module({
  providers: [EventsRepository, FeedRecorder],
  exports: [EventsRepository, FeedRecorder],
})
export class FeedWriterModule {}
