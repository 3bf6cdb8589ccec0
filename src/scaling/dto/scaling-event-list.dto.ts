import { ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'Segment' })
export class SegmentDto {
  number: number;
  /** ms since 1970. */
  startTime: number;
  keyStart: number;
  keyEnd: number;
}

@ApiSchema({ name: 'ScaleMetadata' })
export class ScaleMetadataDto {
  /** When the epoch began, ms since 1970. */
  timestamp: number;
  segmentList: SegmentDto[];
  splits: number;
  merges: number;
}

@ApiSchema({ name: 'ScalingEventList' })
export class ScalingEventListDto {
  scalingEvents: ScaleMetadataDto[];
}
