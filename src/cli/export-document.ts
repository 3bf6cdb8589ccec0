import type {
  ApplyDocument,
  DesiredReaderGroup,
  DesiredScope,
  DesiredStream,
} from '../apply/desired-state';
import type { components } from './generated/api';

type Schemas = components['schemas'];

type Retention = Schemas['RetentionConfig'];

/** Whole days need only `value`; the time parts are written only when they say more. */
function shortRetention(policy: Retention): Retention {
  const { timeBasedRetention, maxTimeBasedRetention, ...rest } = policy;
  return {
    ...rest,
    ...(policy.value ? {} : timeBasedRetention ? { timeBasedRetention } : {}),
    ...(policy.maxValue ? {} : maxTimeBasedRetention ? { maxTimeBasedRetention } : {}),
  };
}

/**
 * A stream as `GET` renders it, written as the create body that makes it again; what create
 * would default (no retention, no tags, zeros) is left out, to keep the document short.
 */
export function toDesiredStream(property: Schemas['StreamProperty']): DesiredStream {
  return {
    streamName: property.streamName,
    scalingPolicy: property.scalingPolicy,
    ...(property.retentionPolicy
      ? { retentionPolicy: shortRetention(property.retentionPolicy) }
      : {}),
    ...(property.tags.length > 0 ? { streamTags: property.tags } : {}),
    ...(property.rolloverSizeBytes ? { rolloverSizeBytes: property.rolloverSizeBytes } : {}),
    ...(property.timestampAggregationTimeout
      ? { timestampAggregationTimeout: property.timestampAggregationTimeout }
      : {}),
  };
}

/** A reader group's streams, by bare name when they are in the group's own scope. */
export function toDesiredReaderGroup(group: Schemas['ReaderGroupProperty']): DesiredReaderGroup {
  const own = `${group.scopeName}/`;
  return {
    readerGroupName: group.readerGroupName,
    streams: group.streamList.map((s) => (s.startsWith(own) ? s.slice(own.length) : s)),
  };
}

export interface ExportedScope {
  scopeName: string;
  /** As `GET .../policy` answers it: `{}` when none is set. */
  policy: Schemas['ScopePolicy'];
  streams: Schemas['StreamProperty'][];
  readerGroups: Schemas['ReaderGroupProperty'][];
}

/**
 * The document that `apply` turns an empty service into this one with. A scope without a policy
 * has no `policy`: applied, the document then leaves a policy set meanwhile as it is.
 */
export function toApplyDocument(scopes: ExportedScope[]): ApplyDocument {
  return {
    scopes: scopes.map((scope): DesiredScope => ({
      scopeName: scope.scopeName,
      ...(Object.keys(scope.policy).length > 0 ? { policy: scope.policy } : {}),
      streams: scope.streams.map(toDesiredStream),
      readerGroups: scope.readerGroups.map(toDesiredReaderGroup),
    })),
  };
}
