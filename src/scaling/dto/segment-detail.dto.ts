import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiDouble, ApiInt32, ApiInt64 } from '../../openapi/api-formats';

/** One segment's life, and the segments before and after it (extension). */
@ApiSchema({ name: 'SegmentDetail' })
export class SegmentDetailDto {
  @ApiInt32()
  number: number;
  /** Start of its key range, in [0, 1). */
  @ApiDouble()
  keyStart: number;
  /** End of its key range (excluded), in (0, 1]. */
  @ApiDouble()
  keyEnd: number;
  /** When it was opened (its epoch's time), ms since 1970. */
  @ApiInt64()
  startTime: number;
  /** When it was sealed (the time of the epoch that sealed it); absent while it is active. */
  @ApiInt64()
  sealedTime?: number;
  /** The epoch that opened it. */
  @ApiInt32()
  createdInEpoch: number;
  /** The epoch that sealed it; absent while it is active. */
  @ApiInt32()
  sealedInEpoch?: number;
  /** The segments of the epoch before its own whose key ranges overlap its range, by number. */
  @ApiProperty({ type: 'integer', format: 'int32', isArray: true })
  predecessors: number[];
  /** The segments that took over its keys when it was sealed, by number. */
  @ApiProperty({ type: 'integer', format: 'int32', isArray: true })
  successors: number[];
}
