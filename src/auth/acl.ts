/** The reference's permissions, in increasing power. */
export enum Permission {
  NONE = 'NONE',
  READ = 'READ',
  READ_UPDATE = 'READ_UPDATE',
}

const POWER: Record<Permission, number> = {
  [Permission.NONE]: 0,
  [Permission.READ]: 1,
  [Permission.READ_UPDATE]: 2,
};

/** Whether `granted` is at least `needed`. */
export const covers = (granted: Permission, needed: Permission): boolean =>
  POWER[granted] >= POWER[needed];

/**
 * Where an entry of a principal's ACL comes from: its account, its token's ACL claim, or one of
 * its token's groups (docs/extensions.md section 9).
 */
export type AclSource = 'account' | 'claim' | `group:${string}`;

export interface AclEntry {
  /** A resource such as `prn::/scope:sales`, where `*` stands for any run of characters. */
  resource: string;
  permission: Permission;
  /** Whether the entry names `resource`. */
  matches(resource: string): boolean;
  source?: AclSource;
}

export class InvalidAclError extends Error {}

/**
 * Whether `text` is the literal `pieces` with any runs of characters between them (a pattern
 * split at its `*`s). No regular expression: `.*` between literals backtracks, and the text is a
 * request's resource, its names as long as a name may be, so two or three `*`s in an entry would
 * cost the square or the cube of that length. Each middle piece is taken at its first place after
 * the one before: a later place would only leave less room for the pieces that follow.
 */
function wildcardMatches(pieces: readonly string[], text: string): boolean {
  const first = pieces[0];
  if (pieces.length === 1) return text === first;
  const last = pieces[pieces.length - 1];
  const end = text.length - last.length;
  if (end < first.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let from = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const at = text.indexOf(piece, from);
    if (at < 0 || at + piece.length > end) return false;
    from = at + piece.length;
  }
  return true;
}

/** Parses the reference's `resource,PERMISSION;resource,PERMISSION` format. */
export function parseAcl(text: string, source?: AclSource): AclEntry[] {
  return text
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const comma = entry.lastIndexOf(',');
      const resource = entry.slice(0, comma).trim();
      const permission = entry.slice(comma + 1).trim();
      if (comma <= 0 || !(permission in Permission)) {
        throw new InvalidAclError(
          `invalid ACL entry '${entry}': expected resource,NONE|READ|READ_UPDATE`,
        );
      }
      const pieces = resource.split('*');
      return {
        resource,
        permission: permission as Permission,
        matches: (text: string) => wildcardMatches(pieces, text),
        ...(source && { source }),
      };
    });
}

/** An entry as the accounts file writes it: `prn::/scope:sales,READ`. */
export const formatAclEntry = (entry: AclEntry): string => `${entry.resource},${entry.permission}`;

/** The first entry matching `resource`: the one that decides (the reference's rule). */
const firstMatch = (acl: readonly AclEntry[], resource: string): AclEntry | undefined =>
  acl.find((entry) => entry.matches(resource));

/** The permission the first entry matching `resource` grants; NONE when none matches. */
export function permissionOn(acl: readonly AclEntry[], resource: string): Permission {
  return firstMatch(acl, resource)?.permission ?? Permission.NONE;
}

/** Whether an ACL grants a permission, and the entry that decided it. */
export interface Decision {
  allowed: boolean;
  /** The first entry matching the resource, as written (`prn::/scope:sales,READ`). */
  matchedEntry?: string;
  source?: AclSource;
}

/**
 * The one access check: every route, list filter, apply and explanation asks it
 * (docs/extensions.md section 9).
 */
export function decide(
  acl: readonly AclEntry[],
  resource: string,
  permission: Permission,
): Decision {
  const entry = firstMatch(acl, resource);
  const allowed = covers(entry?.permission ?? Permission.NONE, permission);
  if (!entry) return { allowed };
  return {
    allowed,
    matchedEntry: formatAclEntry(entry),
    ...(entry.source && { source: entry.source }),
  };
}
