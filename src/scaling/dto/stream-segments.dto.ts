import { ApiSchema } from '@nestjs/swagger';
import { ApiInt32 } from '../../openapi/api-formats';
import { SegmentDto } from './scaling-event-list.dto';

/** The segments of a stream at one moment (extension). */
@ApiSchema({ name: 'StreamSegments' })
export class StreamSegmentsDto {
  /** The epoch in force at that moment: 0 before the stream existed. */
  @ApiInt32()
  epoch: number;
  /** Its segments, by keyStart. */
  segments: SegmentDto[];
}
