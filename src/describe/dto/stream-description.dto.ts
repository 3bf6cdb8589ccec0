import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiInt32, ApiInt64 } from '../../openapi/api-formats';
import { SegmentDto } from '../../scaling/dto/scaling-event-list.dto';
import type { StreamState } from '../../streams/stream';
import { StreamPropertyDto } from '../../streams/dto/stream-property.dto';

/** Everything about one stream in one answer (extension). */
@ApiSchema({ name: 'StreamDescription' })
export class StreamDescriptionDto {
  scopeName: string;
  streamName: string;
  @ApiProperty({ enum: ['ACTIVE', 'SEALED'] })
  state: StreamState;
  /** When the stream was created, ms since 1970. */
  @ApiInt64()
  createdAt: number;
  /** When the stream was last updated or sealed (its creation if never), ms since 1970. */
  @ApiInt64()
  updatedAt: number;
  /** The stream's properties, as `GET` stream answers them. */
  configuration: StreamPropertyDto;
  /** The number of the current epoch: 0 until the stream first scales. */
  @ApiInt32()
  currentEpoch: number;
  /** The segments of the current epoch, by number. */
  activeSegments: SegmentDto[];
  /** When the stream last scaled, ms since 1970; absent until it first does. */
  @ApiInt64()
  lastScaledAt?: number;
  /** The reader groups that read the stream, as `scope/group`, by name: those the caller may read. */
  readerGroups: string[];
  /** How many other reader groups read the stream, which the caller may not read; absent when none. */
  @ApiInt32()
  hiddenReaderGroups?: number;
}
