import type { RuleViolation } from '../common/domain-error';
import type { ScalingType } from '../streams/scaling-policy';

/**
 * The limits and rules a platform team sets on a scope: every field optional, an absent one no
 * limit. Counts are of user streams alone (internal ones, named `_...`, are never counted).
 */
export interface ScopePolicy {
  owner?: string;
  description?: string;
  /** The most user streams the scope may hold, sealed ones included. */
  maxStreams?: number;
  /** The most active segments one stream may have. */
  maxSegmentsPerStream?: number;
  /** The most active segments of all the scope's user streams together. */
  maxActiveSegments?: number;
  /** A new stream's name must match one of these (`*`, `?`: `name-pattern.ts`). */
  streamNames?: string[];
  /** A stream's scaling policy type must be one of these. */
  scalingTypes?: ScalingType[];
  retention?: RetentionRule;
  /** For each pattern, one of a stream's tags at least must match it. */
  requiredTags?: string[];
}

export interface RetentionRule {
  /** A stream must have a retention policy. */
  required?: boolean;
  /** Each limit of a `LIMITED_DAYS` retention, in days (fractions counted), is at most this. */
  maxDays?: number;
  /** Each limit of a `LIMITED_SIZE_MB` retention, in MB, is at most this. */
  maxSizeMb?: number;
}

/** The limits on counts, which refuse a change only when it raises its count above them. */
export type CountLimit = 'maxStreams' | 'maxSegmentsPerStream' | 'maxActiveSegments';

/** The rules a stream a create or a PUT produces must comply with. */
export type StreamRule =
  | 'streamNames'
  | 'scalingTypes'
  | 'retention.required'
  | 'retention.maxDays'
  | 'retention.maxSizeMb'
  | 'requiredTags';

/** One rule a change breaks, as a 422's problem document lists it, named by its field. */
export interface PolicyViolation extends RuleViolation {
  rule: CountLimit | StreamRule;
}

/** Every field of a policy, in the order it is shown. */
const FIELDS = [
  'owner',
  'description',
  'maxStreams',
  'maxSegmentsPerStream',
  'maxActiveSegments',
  'streamNames',
  'scalingTypes',
  'retention',
  'requiredTags',
] as const satisfies readonly (keyof ScopePolicy)[];

const RETENTION_FIELDS = [
  'required',
  'maxDays',
  'maxSizeMb',
] as const satisfies readonly (keyof RetentionRule)[];

/** The fields of `from` among `fields` that hold a value (null is none), in that order. */
function given<T extends object>(from: T, fields: readonly (keyof T)[]): Partial<T> {
  const to: Partial<T> = {};
  for (const field of fields) {
    if (from[field] !== undefined && from[field] !== null) to[field] = from[field];
  }
  return to;
}

/**
 * A policy of a validated request or as stored, with the fields that hold a value alone, always
 * in the same order (the database keeps a document's keys in an order of its own).
 */
export function policyOf(from: ScopePolicy): ScopePolicy {
  const policy = given(from, FIELDS);
  if (policy.retention) policy.retention = given(policy.retention, RETENTION_FIELDS);
  return policy;
}
