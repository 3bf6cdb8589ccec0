import type { ResourceVersion } from '../conditional/resource-version';

/** A reader group as stored: its streams (in the order given), online readers and version. */
export interface ReaderGroupRecord {
  streams: string[];
  readers: string[];
  revision: ResourceVersion;
}

/** A reader group of a listing of several scopes, with the streams it reads. */
export interface ScopedReaderGroup {
  scopeName: string;
  name: string;
  /** Scoped names (`scope/stream`), in the order given. */
  streams: string[];
  revision: ResourceVersion;
}
