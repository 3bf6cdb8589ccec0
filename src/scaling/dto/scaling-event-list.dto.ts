import { ApiSchema } from '@nestjs/swagger';
import { ApiDouble, ApiInt32, ApiInt64 } from '../../openapi/api-formats';
import { PageDto } from '../../pagination/page.dto';

@ApiSchema({ name: 'Segment' })
export class SegmentDto {
  @ApiInt32()
  number: number;
  /** ms since 1970. */
  @ApiInt64()
  startTime: number;
  /** Start of the segment's key range, in [0, 1). */
  @ApiDouble()
  keyStart: number;
  /** End of the segment's key range (exclusive), in (0, 1]. */
  @ApiDouble()
  keyEnd: number;
}

@ApiSchema({ name: 'ScaleMetadata' })
export class ScaleMetadataDto {
  /** When the epoch began, ms since 1970. */
  @ApiInt64()
  timestamp: number;
  segmentList: SegmentDto[];
  /** Segments of the previous record that overlap more than one segment of this one. */
  @ApiInt64()
  splits: number;
  /** Segments of this record that overlap more than one segment of the previous one. */
  @ApiInt64()
  merges: number;
}

@ApiSchema({ name: 'ScalingEventList' })
export class ScalingEventListDto extends PageDto {
  scalingEvents: ScaleMetadataDto[];
}
