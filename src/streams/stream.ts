import type { ResourceVersion } from '../conditional/resource-version';
import type { StreamConfiguration } from './stream-configuration';

export type StreamState = 'ACTIVE' | 'SEALED';

/**
 * A stream as the service knows it: where it is, its state and its configuration. The one
 * shape of a stream between the repository (which stores it in columns) and the mapper (which
 * renders it).
 */
export interface Stream {
  scopeName: string;
  name: string;
  state: StreamState;
  configuration: StreamConfiguration;
  /** Its version, which travels as the ETag. */
  revision: ResourceVersion;
}

/** When a stream was created and last changed, ms since 1970. */
export interface StreamTimes {
  createdAt: number;
  updatedAt: number;
}
