import { FieldViolation } from '../common/errors/domain-error';

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

/** A validated scaling policy. `targetRate` and `scaleFactor` exist only for the rate types. */
export interface ScalingPolicy {
  type: ScalingType;
  minSegments: number;
  targetRate?: number;
  scaleFactor?: number;
}

/** A scaling policy as a client sent it (types already checked). */
export interface ScalingPolicyInput {
  type: ScalingType;
  targetRate?: number;
  scaleFactor?: number;
  minSegments?: number;
}

/** The policy of a stream created without one. */
export const DEFAULT_SCALING_POLICY: ScalingPolicy = { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 };

/** A count that must be given and at least 1; a value of the wrong type is the shape's to report. */
function positive(
  value: unknown,
  field: string,
  violations: FieldViolation[],
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined || value === null) {
    violations.push({ field, message: 'is required' });
  } else if (typeof value !== 'number') {
    return 0;
  } else if (value < 1) {
    violations.push({ field, message: 'must be greater than 0' });
  } else if (value > max) {
    violations.push({ field, message: `must be at most ${max}` });
  }
  return typeof value === 'number' ? value : 0;
}

/** Checks a policy's meaning into `violations` and keeps only the fields its type uses. */
export function scalingPolicyOf(
  input: ScalingPolicyInput,
  path: string,
  violations: FieldViolation[],
): ScalingPolicy {
  const minSegments = positive(input.minSegments, `${path}.minSegments`, violations, MAX_SEGMENTS);
  if (input.type !== 'BY_RATE_IN_KBYTES_PER_SEC' && input.type !== 'BY_RATE_IN_EVENTS_PER_SEC') {
    return { type: 'FIXED_NUM_SEGMENTS', minSegments };
  }
  const targetRate = positive(input.targetRate, `${path}.targetRate`, violations);
  const scaleFactor = positive(input.scaleFactor, `${path}.scaleFactor`, violations);
  return { type: input.type, targetRate, scaleFactor, minSegments };
}
