import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsInt32 } from '../../common/http/validators';
import { SCALING_TYPES } from '../scaling-policy';
import type { ScalingType } from '../scaling-policy';

@ApiSchema({ name: 'ScalingConfig' })
export class ScalingConfigDto {
  @ApiProperty({ enum: SCALING_TYPES })
  @IsIn(SCALING_TYPES, { message: `type must be one of ${SCALING_TYPES.join(', ')}` })
  type: ScalingType;

  /** Target rate per segment, KiB/s or events/s (rate policies only; > 0). */
  @IsOptional()
  @IsInt32()
  targetRate?: number;

  /** How many segments one segment splits into when it scales up (rate policies only; > 0). */
  @IsOptional()
  @IsInt32()
  scaleFactor?: number;

  /** Number of segments (fixed policy) or the least number of segments (rate policies); >= 1. */
  @IsOptional()
  @IsInt32()
  minSegments?: number;
}
