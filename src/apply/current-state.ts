import { entityTagOf, ResourceVersion } from '../conditional/resource-version';
import { NO_POLICY, type StoredPolicy } from '../policies/scope-policies.repository';
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
  /** Its active segments (none when sealed), as its scope's policy counts them. */
  activeSegments: number;
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
  /** Its stored policy (`{}`, version `0`, when none was ever set). */
  policy: StoredPolicy;
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

/** What the features answer for the listed scopes that exist. */
export interface ReadState {
  streams: ScopedStream[];
  groups: ScopedReaderGroup[];
  /** The scopes' stored policies; a scope without one is absent. */
  policies: Map<string, StoredPolicy>;
  /** Active segments by `scope/stream`; a stream without any is absent. */
  activeSegments: Map<string, number>;
}

/**
 * The state the planner reads, from what the features answer for the listed scopes. Versions
 * are entity tags, so a resource deleted and made again between a plan and its apply counts as
 * changed.
 */
export function toCurrentState(
  versions: Map<string, ResourceVersion>,
  read: ReadState,
): CurrentState {
  const scopes = new Map<string, CurrentScope>();
  for (const [scopeName, revision] of versions) {
    const version = entityTagOf(revision);
    const policy = read.policies.get(scopeName) ?? NO_POLICY;
    scopes.set(scopeName, { scopeName, version, policy, streams: [], readerGroups: [] });
  }
  for (const { property, sealed, revision } of read.streams) {
    const { scopeName, streamName } = property;
    scopes.get(scopeName)?.streams.push({
      streamName,
      configuration: configurationView(property),
      sealed,
      activeSegments: read.activeSegments.get(`${scopeName}/${streamName}`) ?? 0,
      version: entityTagOf(revision),
    });
  }
  for (const { scopeName, name, streams, revision } of read.groups) {
    scopes.get(scopeName)?.readerGroups.push({
      readerGroupName: name,
      streams,
      version: entityTagOf(revision),
    });
  }
  return { scopes: [...scopes.values()] };
}
