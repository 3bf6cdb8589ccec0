import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ScopeEntity } from '../src/scopes/scope.entity';
import { StreamEntity } from '../src/streams/stream.entity';
import { StreamEpochEntity } from '../src/streams/stream-epoch.entity';
import { StreamSegmentEntity } from '../src/streams/stream-segment.entity';
import { SegmentNumberingEntity } from '../src/streams/segment-numbering.entity';
import { ReaderGroupEntity } from '../src/reader-groups/reader-group.entity';
import { ReaderGroupStreamEntity } from '../src/reader-groups/reader-group-stream.entity';
import { ReaderGroupReaderEntity } from '../src/reader-groups/reader-group-reader.entity';
import { ChangeEventEntity } from '../src/events/change-event.entity';
import { ChangeFeedEntity } from '../src/events/change-feed.entity';
import { IdempotencyRecordEntity } from '../src/idempotency/idempotency-record.entity';
import { PaginationKeyEntity } from '../src/pagination/pagination-key.entity';
import { AuditEventEntity } from '../src/audit/audit-event.entity';
(async () => {
  const ds = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL, migrationsTableName: 'tributary_migrations',
    entities: [ScopeEntity, StreamEntity, StreamEpochEntity, StreamSegmentEntity, SegmentNumberingEntity, ReaderGroupEntity, ReaderGroupStreamEntity, ReaderGroupReaderEntity, ChangeEventEntity, ChangeFeedEntity, IdempotencyRecordEntity, PaginationKeyEntity, AuditEventEntity] });
  await ds.initialize();
  const log = await ds.driver.createSchemaBuilder().log();
  for (const q of log.upQueries) console.log(q.query);
  console.log('count', log.upQueries.length);
  await ds.destroy();
})().catch((e) => { console.error(e); process.exit(1); });
