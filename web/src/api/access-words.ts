import type { AccessExplanation, MissingPermission } from './types';

/** What each permission lets one do, in words. */
const PERMISSION_WORDS: Record<string, string> = {
  READ: 'read',
  READ_UPDATE: 'read and change',
};

/** A resource of the ACL form (`prn::/scope:sales/stream:orders`) in words. */
export function resourceWords(resource: string): string {
  if (resource === 'prn::/') return 'the root (the list of scopes)';
  const match = /^prn::\/scope:([^/]+)(?:\/(stream|reader-group):([^/]+))?$/.exec(resource);
  if (!match) return resource;
  const [, scope, kind, name] = match;
  if (!kind) return `scope ${scope}`;
  return `${kind === 'stream' ? 'stream' : 'reader group'} ${scope}/${name}`;
}

/** A permission missing on a resource (the `missing` of a 403), in words. */
export function missingWords({ permission, resource }: MissingPermission): string {
  const does = PERMISSION_WORDS[permission];
  return `${permission}${does ? ` (${does})` : ''} on ${resourceWords(resource)} (${resource})`;
}

/** Where an ACL entry comes from (the `source` of `GET /v1/auth/explain`), in words. */
export function sourceWords(source: string | undefined): string | undefined {
  if (source === 'account') return 'your account';
  if (source === 'claim') return "your token's ACL claim";
  if (source?.startsWith('group:')) return `your group ${source.slice('group:'.length)}`;
  return source;
}

/** The permission an ACL entry gives (`prn::/scope:sales,READ` gives READ). */
const permissionOf = (entry: string): string => entry.slice(entry.lastIndexOf(',') + 1);

/**
 * What the caller's own access check (`GET /v1/auth/explain`) says about a permission a 403
 * found missing, in words: which entry of its access named the resource and where that entry
 * comes from, or that none did.
 */
export function explainRefusal(missing: MissingPermission, explanation: AccessExplanation): string {
  const resource = resourceWords(missing.resource);
  const entry = explanation.matchedEntry;
  const from = sourceWords(explanation.source);
  const named = entry && `${entry}${from ? ` (from ${from})` : ''}`;
  if (explanation.allowed) {
    return `Your access now gives ${missing.permission} on ${resource}${named ? ` by ${named}` : ''}: try again.`;
  }
  if (!entry) return `No entry of your access names ${resource}.`;
  return `For ${resource}, the first entry of your access that names it is ${named}, which gives only ${permissionOf(entry)}.`;
}
