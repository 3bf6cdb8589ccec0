export const SCALING_TYPES = [
  'FIXED_NUM_SEGMENTS',
  'BY_RATE_IN_KBYTES_PER_SEC',
  'BY_RATE_IN_EVENTS_PER_SEC',
] as const;
export type ScalingType = (typeof SCALING_TYPES)[number];

/**
 * The most segments one epoch may hold. The contract allows any int32, but every segment is a
 * row: a bound keeps one request from writing millions of them.
 */
export const MAX_SEGMENTS = 10_000;

/** A scaling policy. `targetRate` and `scaleFactor` exist only for the rate types. */
export interface ScalingPolicy {
  type: ScalingType;
  minSegments: number;
  targetRate?: number;
  scaleFactor?: number;
}

/** A scaling policy as a client sent it, already validated (`ScalingConfigDto`). */
export interface ScalingPolicyInput {
  type: ScalingType;
  targetRate?: number;
  scaleFactor?: number;
  minSegments?: number;
}

/** The policy of a stream created without one. */
export const DEFAULT_SCALING_POLICY: ScalingPolicy = { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 };

/** Whether `type` scales by rate, so that it needs a target rate and a scale factor. */
export const isRateType = (type: unknown): boolean =>
  type === 'BY_RATE_IN_KBYTES_PER_SEC' || type === 'BY_RATE_IN_EVENTS_PER_SEC';

/** A validated policy with only the fields its type uses. */
export function scalingPolicyOf(input: ScalingPolicyInput): ScalingPolicy {
  const minSegments = input.minSegments!;
  if (!isRateType(input.type)) return { type: 'FIXED_NUM_SEGMENTS', minSegments };
  return {
    type: input.type,
    targetRate: input.targetRate!,
    scaleFactor: input.scaleFactor!,
    minSegments,
  };
}
