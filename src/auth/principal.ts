import { ANONYMOUS } from '../audit/actor';
import type { MissingPermission } from '../common/domain-error';
import type { AccessNeed } from './access.decorator';
import { AclEntry, decide, Decision, parseAcl, Permission } from './acl';

/** How a request proved who it comes from. */
export type AuthMethod = 'basic' | 'bearer' | 'anonymous';

/** Who a request comes from, and what they may do: an ACL asked through {@link decide}. */
export class Principal {
  constructor(
    readonly name: string,
    readonly method: AuthMethod,
    /** In the order they are asked: the first entry matching a resource decides. */
    readonly acl: readonly AclEntry[],
    /** A token's groups, in the order of its groups claim. */
    readonly groups: readonly string[] = [],
    /** When a token stops being valid, in milliseconds since 1970. */
    readonly expiresAt?: number,
  ) {}

  decide(resource: string, permission: Permission): Decision {
    return decide(this.acl, resource, permission);
  }

  allows(resource: string, permission: Permission): boolean {
    return this.decide(resource, permission).allowed;
  }

  /** Those of `needs` this principal lacks, each once, in order: what a 403 names. */
  lacks(needs: readonly AccessNeed[]): MissingPermission[] {
    const seen = new Set<string>();
    return needs.filter(({ permission, resource }) => {
      const key = `${permission} ${resource}`;
      if (seen.has(key) || this.allows(resource, permission)) return false;
      seen.add(key);
      return true;
    });
  }
}

/**
 * Whether the caller of a request may read a resource: with authentication off (no principal),
 * everything. For answers that name resources besides their own, leaving out what it may not.
 */
export const mayRead = (access: Principal | undefined, resource: string): boolean =>
  access?.allows(resource, Permission.READ) ?? true;

/** Whoever calls while authentication is off: they may do everything. */
export const ANONYMOUS_PRINCIPAL = new Principal(
  ANONYMOUS,
  'anonymous',
  parseAcl('prn::*,READ_UPDATE'),
);

/**
 * Whoever calls without credentials a route open to everyone while authentication is on (the
 * health routes with AUTH_HEALTH_OPEN): they may do nothing more than the route itself.
 */
export const UNAUTHENTICATED_PRINCIPAL = new Principal(ANONYMOUS, 'anonymous', []);
