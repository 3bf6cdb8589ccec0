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

/** A configuration as a client sent it, validated by the request DTOs. */
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
 * The configuration a request asks for, once its DTO has validated it (every rule of a
 * configuration lives there). Omitted numbers are 0; omitted policies the defaults.
 */
export function toStreamConfiguration(input: StreamConfigurationInput): StreamConfiguration {
  const retention = input.retentionPolicy ? retentionPolicyOf(input.retentionPolicy) : undefined;
  return {
    scaling: input.scalingPolicy ? scalingPolicyOf(input.scalingPolicy) : DEFAULT_SCALING_POLICY,
    ...(retention ? { retention } : {}),
    tags: tagsOf(input.streamTags),
    rolloverSizeBytes: input.rolloverSizeBytes ?? 0,
    timestampAggregationTimeout: input.timestampAggregationTimeout ?? 0,
  };
}
