import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsQueryInteger, RefusesUnknownParameters } from '../../common/validators';
import { ApiInt32, ApiInt64 } from '../../openapi/api-formats';
import { SegmentDto } from '../../scaling/dto/scaling-event-list.dto';

/** At most this many scales in one answer, and how many when not asked. */
export const MAX_LOAD_SCALES = 100;
export const DEFAULT_LOAD_SCALES = 20;

@RefusesUnknownParameters()
export class LoadScalesQueryDto {
  /** At most this many scales, the newest (1 to 100; 20 when absent). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LOAD_SCALES, default: 20 })
  @IsOptional()
  @IsQueryInteger(1, MAX_LOAD_SCALES, `limit must be an integer from 1 to ${MAX_LOAD_SCALES}`)
  limit?: number;
}

/** A scale that reports of load made (extension). */
@ApiSchema({ name: 'LoadScale' })
export class LoadScaleDto {
  /** When it was made, ms since 1970. */
  @ApiInt64()
  at: number;
  /** Who reported the load: an account, or `system:autoscale` for the silence sweep. */
  principal: string;
  /** The segment whose report made it. @example 3 */
  @ApiInt32()
  segment: number;
  /** `up`: the segment split; `down`: it merged with cold neighbours. */
  @ApiProperty({ enum: ['up', 'down'] })
  direction: 'up' | 'down';
  /** The rule that scaled, in words. @example "two-minute rate 620.5 > 5 x 100: split into 3" */
  because: string;
  /** The epoch it began. @example 1 */
  @ApiInt32()
  epoch: number;
  /** The segments it sealed, by number. */
  @ApiProperty({ type: 'integer', format: 'int32', isArray: true })
  sealedSegments: number[];
  /** The segments it opened. */
  newSegments: SegmentDto[];
}

/** A stream's recent scales by load, the newest first (extension). */
@ApiSchema({ name: 'LoadScaleList' })
export class LoadScaleListDto {
  scales: LoadScaleDto[];
}
