import { entityTagOf, ResourceVersion } from '../conditional/resource-version';
import type { ScopedReaderGroup } from '../reader-groups/reader-group';
import type { ScopedStream } from '../streams/streams.service';
import { configurationView } from './desired-stream';
import type { StreamPropertyDto } from '../streams/dto/stream-property.dto';

/** A stream's configuration as `GET` stream renders it, without the names. */
export type StreamConfigurationView = Omit<StreamPropertyDto, 'scopeName' | 'streamName'>;

/** A user stream as it is now. */
export interface CurrentStream {
  streamName: string;
  configuration: StreamConfigurationView;
  sealed: boolean;
  /** Its entity tag: changes with every change, and when it is deleted and made again. */
  version: string;
}

/** A reader group as it is now; `streams` are scoped names (`scope/stream`). */
export interface CurrentReaderGroup {
  readerGroupName: string;
  streams: string[];
  /** Its entity tag: changes with every change, and when it is deleted and made again. */
  version: string;
}

export interface CurrentScope {
  scopeName: string;
  /** Its entity tag: changes with every change, and when it is deleted and made again. */
  version: string;
  streams: CurrentStream[];
  readerGroups: CurrentReaderGroup[];
}

/**
 * What exists now. The planner reads only the scopes the document lists; others may be present
 * (the model of a whole service) and are never looked at.
 */
export interface CurrentState {
  scopes: CurrentScope[];
}

/**
 * The state the planner reads, from what the features answer for the listed scopes. Versions
 * are entity tags, so a resource deleted and made again between a plan and its apply counts as
 * changed.
 */
export function toCurrentState(
  versions: Map<string, ResourceVersion>,
  streams: ScopedStream[],
  groups: ScopedReaderGroup[],
): CurrentState {
  const scopes = new Map<string, CurrentScope>();
  for (const [scopeName, revision] of versions) {
    const version = entityTagOf(revision);
    scopes.set(scopeName, { scopeName, version, streams: [], readerGroups: [] });
  }
  for (const { property, sealed, revision } of streams) {
    scopes.get(property.scopeName)?.streams.push({
      streamName: property.streamName,
      configuration: configurationView(property),
      sealed,
      version: entityTagOf(revision),
    });
  }
  for (const { scopeName, name, streams: read, revision } of groups) {
    scopes.get(scopeName)?.readerGroups.push({
      readerGroupName: name,
      streams: read,
      version: entityTagOf(revision),
    });
  }
  return { scopes: [...scopes.values()] };
}
