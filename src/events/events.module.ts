import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DatabaseServerModule } from '../database/database.module';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { FeedAccess } from './feed-access.service';
import { FeedRetention } from './feed-retention.service';
import { FeedTail } from './feed-tail.service';
import { FeedWriterModule } from './feed-writer.module';

/**
 * The change feed (docs/extensions.md section 8) as clients follow it: the route, this
 * instance's listener of the feed, and the deletion of expired events. Its events are written
 * by `AuditedChanges` through {@link FeedWriterModule}.
 */
@Module({
  imports: [FeedWriterModule, AuthModule, DatabaseServerModule],
  controllers: [EventsController],
  providers: [EventsService, FeedTail, FeedAccess, FeedRetention],
  exports: [EventsService],
})
export class EventsModule {}
