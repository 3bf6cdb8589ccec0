import { Permission } from '../auth/acl';
import type { Principal } from '../auth/principal';

/**
 * Who follows the feed, with authentication on: the events of resources it may not READ are
 * left out, asked of its access as it is when each event is sent, not as it was when it
 * connected (accounts and group ACLs are read again on SIGHUP).
 */
export interface FeedViewer {
  /** The caller's access now; throws when its credentials no longer hold. */
  current(): Promise<Principal>;
}

/** The events a viewer may see (all of them without authentication). */
export async function visibleTo<T extends { resource: string }>(
  viewer: FeedViewer | undefined,
  events: T[],
): Promise<T[]> {
  if (!viewer || events.length === 0) return events;
  const principal = await viewer.current();
  return events.filter((event) => principal.allows(event.resource, Permission.READ));
}
