import { ANONYMOUS } from '../audit/actor';
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
}

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
