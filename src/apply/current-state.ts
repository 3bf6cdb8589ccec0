import type { ScopedReaderGroup } from '../reader-groups/reader-groups.repository';
import type { ScopedStream } from '../streams/streams.service';
import type { CurrentScope, CurrentState } from './apply-document';
import { configurationView } from './desired-stream';

/** The state the planner reads, from what the features answer for the listed scopes. */
export function toCurrentState(
  versions: Map<string, number>,
  streams: ScopedStream[],
  groups: ScopedReaderGroup[],
): CurrentState {
  const scopes = new Map<string, CurrentScope>();
  for (const [scopeName, version] of versions) {
    scopes.set(scopeName, { scopeName, version, streams: [], readerGroups: [] });
  }
  for (const { property, sealed, version } of streams) {
    scopes.get(property.scopeName)?.streams.push({
      streamName: property.streamName,
      configuration: configurationView(property),
      sealed,
      version,
    });
  }
  for (const { scopeName, name, streams: read, version } of groups) {
    scopes.get(scopeName)?.readerGroups.push({ readerGroupName: name, streams: read, version });
  }
  return { scopes: [...scopes.values()] };
}
