import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { IsInt64 } from '../../common/http/validators';
import { RETENTION_TYPES } from '../retention-policy';
import type { RetentionType } from '../retention-policy';
import { TimeBasedRetentionDto } from './time-based-retention.dto';

@ApiSchema({ name: 'RetentionConfig' })
export class RetentionConfigDto {
  /** Whether retention is by time or by space. */
  @ApiProperty({ enum: RETENTION_TYPES })
  @IsIn(RETENTION_TYPES, { message: `type must be one of ${RETENTION_TYPES.join(', ')}` })
  type: RetentionType;

  /** Minimum retention: days (LIMITED_DAYS) or MiB (LIMITED_SIZE_MB). */
  @IsOptional()
  @IsInt64()
  value?: number;

  /** Minimum retention as days, hours and minutes (LIMITED_DAYS with value 0). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TimeBasedRetentionDto)
  timeBasedRetention?: TimeBasedRetentionDto;

  /** Maximum retention: days (LIMITED_DAYS) or MiB (LIMITED_SIZE_MB). */
  @IsOptional()
  @IsInt64()
  maxValue?: number;

  /** Maximum retention as days, hours and minutes (LIMITED_DAYS with maxValue 0). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TimeBasedRetentionDto)
  maxTimeBasedRetention?: TimeBasedRetentionDto;
}
