import { entityTagOf, ResourceVersion } from '../common/conditional/resource-version';
import type { ScopedReaderGroup } from '../reader-groups/reader-groups.repository';
import type { ScopedStream } from '../streams/streams.service';
import type { CurrentScope, CurrentState } from './apply-document';
import { configurationView } from './desired-stream';

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
