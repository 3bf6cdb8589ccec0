import { AclEntry, parseAcl } from '../acl';
import type { GroupAcls } from '../group-acls-file';

/** Which claims of a token name its principal, its groups and its own ACL entries. */
export interface ClaimNames {
  principal: string;
  groups: string;
  acl?: string;
}

/** Who a valid token speaks for, read from its claims. */
export interface TokenIdentity {
  name: string;
  groups: string[];
  /** The ACL claim's entries, then each group's entries in the order of the groups claim. */
  acl: AclEntry[];
}

/** A valid signature over claims this service cannot use; `message` is the reason. */
export class UnusableClaimsError extends Error {}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The claim at `path`: the claim of exactly that name if there is one (some providers name
 * claims by URL, dots included), else the walk of its dotted parts (`realm_access.roles`).
 */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (!isRecord(value) || !Object.hasOwn(value, part)) return undefined;
    value = value[part];
  }
  return value;
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The ACL claim's entries: one string in the accounts file's form, or a list of them. */
function claimAcl(value: unknown, claim: string): AclEntry[] {
  if (value === undefined) return [];
  const parts = typeof value === 'string' ? [value] : value;
  if (!isStringList(parts)) {
    throw new UnusableClaimsError(`the ${claim} claim is not an ACL string or a list of them`);
  }
  try {
    return parts.flatMap((part) => parseAcl(part, 'claim'));
  } catch (error) {
    throw new UnusableClaimsError(`the ${claim} claim: ${(error as Error).message}`);
  }
}

/** The principal, groups and ACL of a token's verified claims (docs/extensions.md section 9). */
export function identityOf(
  claims: Record<string, unknown>,
  names: ClaimNames,
  groupAcls: GroupAcls,
): TokenIdentity {
  const name = claimAt(claims, names.principal);
  if (typeof name !== 'string' || name === '') {
    throw new UnusableClaimsError(`the token has no ${names.principal} claim`);
  }
  const groups = claimAt(claims, names.groups) ?? [];
  if (!isStringList(groups)) {
    throw new UnusableClaimsError(`the ${names.groups} claim is not a list of strings`);
  }
  const own = names.acl === undefined ? [] : claimAcl(claimAt(claims, names.acl), names.acl);
  return {
    name,
    groups,
    acl: [...own, ...groups.flatMap((group) => groupAcls.get(group) ?? [])],
  };
}
