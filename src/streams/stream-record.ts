import type { RetentionType } from './retention-policy';
import type { ScalingType } from './scaling-policy';

export type StreamState = 'ACTIVE' | 'SEALED';

/** The columns that hold a configuration, so that a PUT replaces every one of them. */
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

/** A stream as the API reads it: name, state and configuration. */
export interface StreamRecord extends ConfigurationColumns {
  scopeName: string;
  name: string;
  state: StreamState;
  version?: number;
}
