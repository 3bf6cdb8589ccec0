import { checked, violatedFields } from '../../test/support/violated-fields';
import { MAX_SEGMENTS, ScalingPolicyInput, scalingPolicyOf } from './scaling-policy';

const toScalingPolicy = (input: ScalingPolicyInput) =>
  checked((violations) => scalingPolicyOf(input, 'scalingPolicy', violations));

const violationsOf = (input: ScalingPolicyInput) => violatedFields(() => toScalingPolicy(input));

describe('toScalingPolicy', () => {
  it('keeps only minSegments for a fixed policy', () => {
    expect(
      toScalingPolicy({
        type: 'FIXED_NUM_SEGMENTS',
        minSegments: 3,
        targetRate: 7,
        scaleFactor: 2,
      }),
    ).toEqual({ type: 'FIXED_NUM_SEGMENTS', minSegments: 3 });
  });

  it.each(['BY_RATE_IN_KBYTES_PER_SEC', 'BY_RATE_IN_EVENTS_PER_SEC'] as const)(
    'keeps every field of %s',
    (type) => {
      expect(toScalingPolicy({ type, targetRate: 100, scaleFactor: 2, minSegments: 1 })).toEqual({
        type,
        targetRate: 100,
        scaleFactor: 2,
        minSegments: 1,
      });
    },
  );

  it('needs minSegments of at least 1 for a fixed policy', () => {
    expect(violationsOf({ type: 'FIXED_NUM_SEGMENTS' })).toEqual(['scalingPolicy.minSegments']);
    expect(violationsOf({ type: 'FIXED_NUM_SEGMENTS', minSegments: 0 })).toEqual([
      'scalingPolicy.minSegments',
    ]);
    expect(violationsOf({ type: 'FIXED_NUM_SEGMENTS', minSegments: -1 })).toEqual([
      'scalingPolicy.minSegments',
    ]);
  });

  it('bounds the number of segments', () => {
    expect(
      toScalingPolicy({ type: 'FIXED_NUM_SEGMENTS', minSegments: MAX_SEGMENTS }).minSegments,
    ).toBe(MAX_SEGMENTS);
    expect(violationsOf({ type: 'FIXED_NUM_SEGMENTS', minSegments: MAX_SEGMENTS + 1 })).toEqual([
      'scalingPolicy.minSegments',
    ]);
  });

  it('names every missing or non-positive field of a rate policy', () => {
    expect(violationsOf({ type: 'BY_RATE_IN_EVENTS_PER_SEC' })).toEqual([
      'scalingPolicy.minSegments',
      'scalingPolicy.targetRate',
      'scalingPolicy.scaleFactor',
    ]);
    expect(
      violationsOf({
        type: 'BY_RATE_IN_KBYTES_PER_SEC',
        targetRate: 0,
        scaleFactor: -2,
        minSegments: 1,
      }),
    ).toEqual(['scalingPolicy.targetRate', 'scalingPolicy.scaleFactor']);
  });
});
