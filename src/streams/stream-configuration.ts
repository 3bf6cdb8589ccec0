import { FieldViolation, InvalidRequestError } from '../common/errors/domain-error';
import { RetentionPolicy, RetentionPolicyInput, retentionPolicyOf } from './retention-policy';
import {
  DEFAULT_SCALING_POLICY,
  ScalingPolicy,
  ScalingPolicyInput,
  scalingPolicyOf,
} from './scaling-policy';
import { tagsOf } from './stream-tags';

/** Everything a stream is configured with; PUT replaces all of it. The one domain shape. */
export interface StreamConfiguration {
  scaling: ScalingPolicy;
  retention?: RetentionPolicy;
  tags: string[];
  rolloverSizeBytes: number;
  timestampAggregationTimeout: number;
}

/** A configuration as a client sent it (the request DTOs). */
export interface StreamConfigurationInput {
  scalingPolicy?: ScalingPolicyInput;
  retentionPolicy?: RetentionPolicyInput;
  streamTags?: string[];
  rolloverSizeBytes?: number;
  timestampAggregationTimeout?: number;
}

/** The configuration of an internal stream: one fixed segment, nothing else. */
export const INTERNAL_STREAM_CONFIGURATION: StreamConfiguration = {
  scaling: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
  tags: [],
  rolloverSizeBytes: 0,
  timestampAggregationTimeout: 0,
};

/**
 * The rules of a configuration's meaning, beyond the shape its DTO checks: every violation of
 * every part, each with its field path, and the configuration they describe (meaningful only
 * without violations). Omitted numbers are 0. Safe on a body whose shape is wrong: fields of
 * the wrong type are left to the shape's report.
 */
export function readStreamConfiguration(input: StreamConfigurationInput): {
  configuration: StreamConfiguration;
  violations: FieldViolation[];
} {
  const violations: FieldViolation[] = [];
  const scaling = input.scalingPolicy
    ? scalingPolicyOf(input.scalingPolicy, 'scalingPolicy', violations)
    : DEFAULT_SCALING_POLICY;
  const retention = retentionPolicyOf(input.retentionPolicy, 'retentionPolicy', violations);
  const configuration: StreamConfiguration = {
    scaling,
    ...(retention ? { retention } : {}),
    tags: tagsOf(input.streamTags, 'streamTags', violations),
    rolloverSizeBytes: input.rolloverSizeBytes ?? 0,
    timestampAggregationTimeout: input.timestampAggregationTimeout ?? 0,
  };
  return { configuration, violations };
}

/** The configuration a valid request asks for; 400 naming every violation otherwise. */
export function toStreamConfiguration(input: StreamConfigurationInput): StreamConfiguration {
  const { configuration, violations } = readStreamConfiguration(input);
  if (violations.length > 0) throw new InvalidRequestError(violations);
  return configuration;
}
