import { ScalingPolicy } from '../streams/scaling-policy';

/**
 * Whether a new policy rescales a stream with `activeSegments`: a fixed policy wants exactly
 * `minSegments`; a rate policy wants at least `minSegments`.
 */
export function needsRescale(policy: ScalingPolicy, activeSegments: number): boolean {
  return policy.type === 'FIXED_NUM_SEGMENTS'
    ? activeSegments !== policy.minSegments
    : activeSegments < policy.minSegments;
}

/** How many segments a stream of `activeSegments` active ones has once `policy` is applied. */
export function activeSegmentsAfter(policy: ScalingPolicy, activeSegments: number): number {
  return needsRescale(policy, activeSegments) ? policy.minSegments : activeSegments;
}
