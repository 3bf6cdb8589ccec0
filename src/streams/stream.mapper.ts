import { RetentionConfigDto } from './dto/retention-config.dto';
import { StreamPropertyDto } from './dto/stream-property.dto';
import { renderRetentionPolicy } from './retention-policy';
import { StreamConfiguration } from './stream-configuration';
import type { ConfigurationColumns, StreamRecord } from './stream-record';

export function configurationColumns(config: StreamConfiguration): ConfigurationColumns {
  return {
    scalingType: config.scaling.type,
    minSegments: config.scaling.minSegments,
    targetRate: config.scaling.targetRate ?? null,
    scaleFactor: config.scaling.scaleFactor ?? null,
    retentionType: config.retention?.type ?? null,
    retentionMin: config.retention?.min ?? null,
    retentionMax: config.retention?.max ?? null,
    tags: config.tags,
    rolloverSizeBytes: config.rolloverSizeBytes,
    timestampAggregationTimeout: config.timestampAggregationTimeout,
  };
}

/** The wire form of a stream's configuration (its version travels as the ETag, not here). */
export function toStreamProperty(stream: Omit<StreamRecord, 'revision'>): StreamPropertyDto {
  return {
    scopeName: stream.scopeName,
    streamName: stream.name,
    scalingPolicy:
      stream.scalingType === 'FIXED_NUM_SEGMENTS'
        ? { type: stream.scalingType, minSegments: stream.minSegments }
        : {
            type: stream.scalingType,
            targetRate: stream.targetRate ?? undefined,
            scaleFactor: stream.scaleFactor ?? undefined,
            minSegments: stream.minSegments,
          },
    retentionPolicy: retentionOf(stream),
    tags: stream.tags,
    rolloverSizeBytes: stream.rolloverSizeBytes,
    timestampAggregationTimeout: stream.timestampAggregationTimeout,
  };
}

function retentionOf(stream: Omit<StreamRecord, 'revision'>): RetentionConfigDto | undefined {
  if (stream.retentionType === null || stream.retentionMin === null) return undefined;
  return renderRetentionPolicy({
    type: stream.retentionType,
    min: stream.retentionMin,
    ...(stream.retentionMax !== null ? { max: stream.retentionMax } : {}),
  });
}
