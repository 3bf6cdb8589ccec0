import { FieldViolation, InvalidRequestError } from '../common/errors/domain-error';
import { RetentionPolicy, RetentionPolicyInput, toRetentionPolicy } from './retention-policy';
import {
  DEFAULT_SCALING_POLICY,
  ScalingPolicy,
  ScalingPolicyInput,
  toScalingPolicy,
} from './scaling-policy';
import { normalizeTags } from './stream-tags';

/** Everything a stream is configured with; PUT replaces all of it. */
export interface StreamConfiguration {
  scaling: ScalingPolicy;
  retention?: RetentionPolicy;
  tags: string[];
  rolloverSizeBytes: number;
  timestampAggregationTimeout: number;
}

/** A configuration as a client sent it (types already checked). */
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

/** Runs each rule, collecting the violations of all of them so the client sees every one. */
function collect<T>(violations: FieldViolation[], rule: () => T): T | undefined {
  try {
    return rule();
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    violations.push(...error.violations);
    return undefined;
  }
}

/** Applies the defaults and the rules of every part; omitted numbers are 0. */
export function toStreamConfiguration(input: StreamConfigurationInput): StreamConfiguration {
  const violations: FieldViolation[] = [];
  const scaling = input.scalingPolicy
    ? collect(violations, () => toScalingPolicy(input.scalingPolicy!))
    : DEFAULT_SCALING_POLICY;
  const retention = collect(violations, () => toRetentionPolicy(input.retentionPolicy));
  const tags = collect(violations, () => normalizeTags(input.streamTags));
  if (violations.length > 0) throw new InvalidRequestError(violations);
  return {
    scaling: scaling!,
    ...(retention ? { retention } : {}),
    tags: tags!,
    rolloverSizeBytes: input.rolloverSizeBytes ?? 0,
    timestampAggregationTimeout: input.timestampAggregationTimeout ?? 0,
  };
}
