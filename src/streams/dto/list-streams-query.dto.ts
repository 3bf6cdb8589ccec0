import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../pagination/page-query.dto';
import { STREAM_FILTER_TYPES } from '../stream-filter';
import type { StreamFilterType } from '../stream-filter';

export class ListStreamsQueryDto extends PageQueryDto {
  /** The kind of filter. */
  @ApiPropertyOptional({ enum: STREAM_FILTER_TYPES })
  @IsOptional()
  @IsIn(STREAM_FILTER_TYPES, {
    message: `filter_type must be one of ${STREAM_FILTER_TYPES.join(', ')}`,
  })
  filter_type?: StreamFilterType;

  /** A tag (filter_type=tag), or true/false (filter_type=showInternalStreams). */
  @IsOptional()
  @IsString()
  filter_value?: string;

  /** Legacy form of filter_type=showInternalStreams (earlier revision of the interface). */
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsString()
  showInternalStreams?: string;
}
