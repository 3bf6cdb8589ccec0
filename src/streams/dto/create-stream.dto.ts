import { ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { EachElement, IsInt64, IsStreamName } from '../../common/validators';
import { distinctTagCount, MAX_TAGS, tagAtProblem } from '../stream-tags';
import { RetentionConfigDto } from './retention-config.dto';
import { ScalingConfigDto } from './scaling-config.dto';

/** At most 128 tags once duplicates are dropped. */
const HasFewTags = (): PropertyDecorator =>
  ValidateBy({
    name: 'hasFewTags',
    validator: {
      validate: (tags: unknown) => !Array.isArray(tags) || distinctTagCount(tags) <= MAX_TAGS,
      defaultMessage: () => `must hold at most ${MAX_TAGS} distinct tags`,
    },
  });

@ApiSchema({ name: 'CreateStreamRequest' })
export class CreateStreamDto {
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

  /**
   * At most 128 distinct tags of 1 to 256 characters; duplicates are dropped. The list may hold
   * at most 1,000 entries, duplicates included.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000, { message: 'must list at most $constraint1 tags' })
  @IsString({ each: true })
  @EachElement('isTag', tagAtProblem)
  @HasFewTags()
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
}
