/** Where the service serves the console (the build's `base`). */
export const CONSOLE_ROOT = '/console';

/** The screens, each with what its path names. */
export type Route =
  | { screen: 'scopes' }
  | { screen: 'scope'; scope: string }
  | { screen: 'stream'; scope: string; stream: string }
  | { screen: 'readerGroup'; scope: string; group: string }
  | { screen: 'audit' }
  | { screen: 'health' }
  | { screen: 'apply' }
  | { screen: 'notFound' };

function decoded(segment: string): string | undefined {
  try {
    const name = decodeURIComponent(segment);
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}

/** The screen a path shows (`/console/scopes/sales/streams/orders`). */
export function routeOf(pathname: string): Route {
  if (pathname !== CONSOLE_ROOT && !pathname.startsWith(`${CONSOLE_ROOT}/`)) {
    return { screen: 'notFound' };
  }
  const parts = pathname.slice(CONSOLE_ROOT.length).split('/').filter(Boolean);
  const names = parts.map(decoded);
  if (names.some((name) => name === undefined)) return { screen: 'notFound' };
  const [first, scope, kind, name, ...rest] = names as string[];
  if (parts.length === 0) return { screen: 'scopes' };
  if (parts.length === 1 && ['audit', 'health', 'apply'].includes(first)) {
    return { screen: first as 'audit' | 'health' | 'apply' };
  }
  if (first !== 'scopes' || rest.length > 0) return { screen: 'notFound' };
  if (parts.length === 2) return { screen: 'scope', scope };
  if (parts.length === 4 && kind === 'streams') return { screen: 'stream', scope, stream: name };
  if (parts.length === 4 && kind === 'readergroups') {
    return { screen: 'readerGroup', scope, group: name };
  }
  return { screen: 'notFound' };
}

const segment = encodeURIComponent;

/** The path of a screen, the inverse of {@link routeOf}. */
export function pathOf(route: Exclude<Route, { screen: 'notFound' }>): string {
  switch (route.screen) {
    case 'scopes':
      return CONSOLE_ROOT;
    case 'scope':
      return `${CONSOLE_ROOT}/scopes/${segment(route.scope)}`;
    case 'stream':
      return `${CONSOLE_ROOT}/scopes/${segment(route.scope)}/streams/${segment(route.stream)}`;
    case 'readerGroup':
      return `${CONSOLE_ROOT}/scopes/${segment(route.scope)}/readergroups/${segment(route.group)}`;
    default:
      return `${CONSOLE_ROOT}/${route.screen}`;
  }
}

/** A path with a query of the given values (empty and undefined values left out). */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]),
  ).toString();
  return search ? `${path}?${search}` : path;
}

/**
 * The screen a resource of the ACL form names (`prn::/scope:sales/stream:orders`), for links
 * from the audit trail and the apply plan; undefined for the root or another form.
 */
export function routeOfResource(resource: string): Route | undefined {
  const match = /^prn::\/scope:([^/]+)(?:\/(stream|reader-group):([^/]+))?$/.exec(resource);
  if (!match) return undefined;
  const [, scope, kind, name] = match;
  if (!kind) return { screen: 'scope', scope };
  return kind === 'stream'
    ? { screen: 'stream', scope, stream: name }
    : { screen: 'readerGroup', scope, group: name };
}
