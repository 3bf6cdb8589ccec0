import { StreamPropertyDto } from './dto/stream-property.dto';
import { renderRetentionPolicy } from './retention-policy';
import type { Stream } from './stream';

/** A stream as the API renders it (GET, and the bodies of 201 and 200); its version travels as
 * the ETag, not here. */
export function toStreamProperty(stream: Omit<Stream, 'revision'>): StreamPropertyDto {
  const { scaling, retention, tags, rolloverSizeBytes, timestampAggregationTimeout } =
    stream.configuration;
  return {
    scopeName: stream.scopeName,
    streamName: stream.name,
    scalingPolicy:
      scaling.type === 'FIXED_NUM_SEGMENTS'
        ? { type: scaling.type, minSegments: scaling.minSegments }
        : {
            type: scaling.type,
            targetRate: scaling.targetRate,
            scaleFactor: scaling.scaleFactor,
            minSegments: scaling.minSegments,
          },
    retentionPolicy: retention ? renderRetentionPolicy(retention) : undefined,
    tags,
    rolloverSizeBytes,
    timestampAggregationTimeout,
  };
}
