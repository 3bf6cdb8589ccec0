import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import { IsInt32, IsRequired, NumberRule } from '../../common/validators';
import { isRateType, MAX_SEGMENTS, SCALING_TYPES } from '../scaling-policy';
import type { ScalingType } from '../scaling-policy';

const ofRateType = (holder: object): boolean => isRateType((holder as ScalingConfigDto).type);

/**
 * A setting of the rate policies: required there, and above 0. A fixed policy ignores it, but a
 * value it is sent must still have the right shape.
 */
const RateSetting = (): PropertyDecorator =>
  applyDecorators(
    ValidateIf((policy: object, value: unknown) => ofRateType(policy) || value != null),
    IsRequired(),
    IsInt32(),
    NumberRule('isPositiveRateSetting', (value, policy) =>
      ofRateType(policy) && value < 1 ? 'must be greater than 0' : undefined,
    ),
  );

@ApiSchema({ name: 'ScalingConfig' })
export class ScalingConfigDto {
  @ApiProperty({ enum: SCALING_TYPES })
  @IsIn(SCALING_TYPES, { message: `type must be one of ${SCALING_TYPES.join(', ')}` })
  type: ScalingType;

  /** Target rate per segment, KiB/s or events/s (rate policies only; > 0). */
  @RateSetting()
  targetRate?: number;

  /** How many segments one segment splits into when it scales up (rate policies only; > 0). */
  @RateSetting()
  scaleFactor?: number;

  /** Number of segments (fixed policy) or the least number of segments (rate policies); >= 1. */
  @IsRequired()
  @IsInt32()
  @NumberRule('isSegmentCount', (value) => {
    if (value < 1) return 'must be greater than 0';
    return value > MAX_SEGMENTS ? `must be at most ${MAX_SEGMENTS}` : undefined;
  })
  minSegments?: number;
}
