import { ApiSchema } from '@nestjs/swagger';
import { ApiInt64 } from '../../openapi/api-formats';
import { RetentionConfigDto } from './retention-config.dto';
import { ScalingConfigDto } from './scaling-config.dto';

@ApiSchema({ name: 'StreamProperty' })
export class StreamPropertyDto {
  scopeName: string;
  streamName: string;
  scalingPolicy: ScalingConfigDto;
  /** Absent when the stream keeps its data forever. */
  retentionPolicy?: RetentionConfigDto;
  tags: string[];
  /** Bytes; 0 means the server default. */
  @ApiInt64()
  rolloverSizeBytes: number;
  /** Milliseconds; 0 means the server default. */
  @ApiInt64()
  timestampAggregationTimeout: number;
}
