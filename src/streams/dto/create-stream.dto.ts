import { ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { IsInt64, IsStreamName } from '../../common/http/validators';
import { FieldViolation } from '../../common/errors/domain-error';
import { HasMeaningRules } from '../../common/http/validation.pipe';
import { readStreamConfiguration } from '../stream-configuration';
import { RetentionConfigDto } from './retention-config.dto';
import { ScalingConfigDto } from './scaling-config.dto';

@ApiSchema({ name: 'CreateStreamRequest' })
export class CreateStreamDto implements HasMeaningRules {
  /**
   * 1 to 250 characters of A-Z a-z 0-9 . - ; names starting with `_` are reserved.
   * @example "orders"
   */
  @IsStreamName()
  streamName: string;

  /** Absent: FIXED_NUM_SEGMENTS with one segment. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ScalingConfigDto)
  scalingPolicy?: ScalingConfigDto;

  /** Absent: data is kept forever. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetentionConfigDto)
  retentionPolicy?: RetentionConfigDto;

  /** At most 128 distinct tags of 1 to 256 characters; duplicates are dropped. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  streamTags?: string[];

  /** Milliseconds; 0 means the server default. */
  @IsOptional()
  @IsInt64()
  @Min(0)
  timestampAggregationTimeout?: number;

  /** Bytes; 0 means the server default. */
  @IsOptional()
  @IsInt64()
  @Min(0)
  rolloverSizeBytes?: number;

  meaningViolations(): FieldViolation[] {
    return readStreamConfiguration(this).violations;
  }
}
