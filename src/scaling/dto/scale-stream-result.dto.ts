import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiInt32, ApiInt64 } from '../../openapi/api-formats';
import { SegmentDto } from './scaling-event-list.dto';

/** What a scale did, or, as a dry run, would do (extension). */
@ApiSchema({ name: 'ScaleStreamResult' })
export class ScaleStreamResultDto {
  /** The epoch the scale makes: the current one plus 1. */
  @ApiInt32()
  epoch: number;
  /** When it begins, ms since 1970 (a dry run: now). */
  @ApiInt64()
  timestamp: number;
  /** Every segment active after the scale, by keyStart. */
  segments: SegmentDto[];
  /** The segments sealed, by number. */
  @ApiProperty({ type: 'integer', format: 'int32', isArray: true })
  sealedSegments: number[];
  /** The segments opened, in the order of the request's `newRanges` (so by number). */
  newSegments: SegmentDto[];
  /** Sealed segments whose keys more than one new segment took over. */
  @ApiInt64()
  splits: number;
  /** New segments that took over the keys of more than one sealed segment. */
  @ApiInt64()
  merges: number;
}
