import type { RetentionPolicy, RetentionType } from './retention-policy';
import type { ScalingPolicy, ScalingType } from './scaling-policy';
import type { Stream, StreamState } from './stream';
import type { StreamConfiguration } from './stream-configuration';

/**
 * How the `streams` table holds a stream: the repository's business only. A configuration is
 * flat there, in columns that a PUT replaces all at once.
 */
export interface ConfigurationColumns {
  scalingType: ScalingType;
  minSegments: number;
  targetRate: number | null;
  scaleFactor: number | null;
  retentionType: RetentionType | null;
  /** Minutes for `LIMITED_DAYS`, MiB for `LIMITED_SIZE_MB`. */
  retentionMin: number | null;
  retentionMax: number | null;
  tags: string[];
  rolloverSizeBytes: number;
  timestampAggregationTimeout: number;
}

type BigintColumn =
  'retentionMin' | 'retentionMax' | 'rolloverSizeBytes' | 'timestampAggregationTimeout';

/** A stream's row as selected, columns named as properties; `bigint` may arrive as a string. */
export type StreamRow = Omit<ConfigurationColumns, BigintColumn> &
  Record<BigintColumn, string | number | null> & {
    scopeName: string;
    name: string;
    state: StreamState;
  };

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

const int64 = (value: string | number | null): number | undefined =>
  value === null ? undefined : Number(value);

function scalingOf(row: StreamRow): ScalingPolicy {
  const { scalingType: type, minSegments } = row;
  if (type === 'FIXED_NUM_SEGMENTS') return { type, minSegments };
  return {
    type,
    ...(row.targetRate === null ? {} : { targetRate: row.targetRate }),
    ...(row.scaleFactor === null ? {} : { scaleFactor: row.scaleFactor }),
    minSegments,
  };
}

function retentionOf(row: StreamRow): RetentionPolicy | undefined {
  const min = int64(row.retentionMin);
  if (row.retentionType === null || min === undefined) return undefined;
  const max = int64(row.retentionMax);
  return max === undefined
    ? { type: row.retentionType, min }
    : { type: row.retentionType, min, max };
}

/** The stream a row holds, but for its version (which the caller selects, or not). */
export function streamOf(row: StreamRow): Omit<Stream, 'revision'> {
  const retention = retentionOf(row);
  return {
    scopeName: row.scopeName,
    name: row.name,
    state: row.state,
    configuration: {
      scaling: scalingOf(row),
      ...(retention ? { retention } : {}),
      tags: row.tags,
      rolloverSizeBytes: Number(row.rolloverSizeBytes),
      timestampAggregationTimeout: Number(row.timestampAggregationTimeout),
    },
  };
}
