import { SegmentLoadEntity } from '../autoscale/segment-load.entity';
import { StreamLoadEntity } from '../autoscale/stream-load.entity';
import { AuditEventEntity } from '../audit/audit-event.entity';
import { ChangeEventEntity } from '../events/change-event.entity';
import { ChangeFeedEntity } from '../events/change-feed.entity';
import { IdempotencyRecordEntity } from '../idempotency/idempotency-record.entity';
import { PaginationKeyEntity } from '../pagination/pagination-key.entity';
import { ScopePolicyCountChangeEntity } from '../policies/scope-policy-count-change.entity';
import { ScopePolicyCountsEntity } from '../policies/scope-policy-counts.entity';
import { ScopePolicyEntity } from '../policies/scope-policy.entity';
import { ReaderGroupReaderEntity } from '../reader-groups/reader-group-reader.entity';
import { ReaderGroupStreamEntity } from '../reader-groups/reader-group-stream.entity';
import { ReaderGroupEntity } from '../reader-groups/reader-group.entity';
import { ScopeEntity } from '../scopes/scope.entity';
import { SegmentNumberingEntity } from '../streams/segment-numbering.entity';
import { StreamEpochEntity } from '../streams/stream-epoch.entity';
import { StreamSegmentEntity } from '../streams/stream-segment.entity';
import { StreamEntity } from '../streams/stream.entity';

/** Every table of the service, each beside the feature that owns it. */
export const entities = [
  ScopeEntity,
  ScopePolicyEntity,
  ScopePolicyCountsEntity,
  ScopePolicyCountChangeEntity,
  StreamEntity,
  StreamEpochEntity,
  StreamSegmentEntity,
  SegmentNumberingEntity,
  StreamLoadEntity,
  SegmentLoadEntity,
  ReaderGroupEntity,
  ReaderGroupStreamEntity,
  ReaderGroupReaderEntity,
  AuditEventEntity,
  ChangeEventEntity,
  ChangeFeedEntity,
  IdempotencyRecordEntity,
  PaginationKeyEntity,
];
