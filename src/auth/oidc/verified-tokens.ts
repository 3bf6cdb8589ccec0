import type { GroupAcls } from '../group-acls-file';
import type { Principal } from '../principal';

/** A token verified before, and what its verification depended on. */
interface Verified {
  principal: Principal;
  /** Milliseconds since 1970 within which the token is valid, clock tolerance included. */
  from: number;
  until: number;
  /** The provider's keys and the group ACLs it was checked with. */
  keys: number;
  groupAcls: GroupAcls;
}

/**
 * The principals of bearer tokens verified before, by token: a client sends the same token until
 * it expires, and checking its signature again would cost more than the read it asks for. An
 * entry is used only within the token's validity and while the provider's keys and the group
 * ACLs are those it was verified with; anything else is verified afresh (and refused with the
 * reason, if it must be). At most `capacity` tokens, the oldest forgotten first.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, Verified>();

  constructor(
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(token: string, keys: number, groupAcls: GroupAcls): Principal | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    const now = this.now();
    if (
      now < entry.from ||
      now > entry.until ||
      entry.keys !== keys ||
      entry.groupAcls !== groupAcls
    ) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.principal;
  }

  set(token: string, entry: Verified): void {
    if (this.entries.size >= this.capacity) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(token, entry);
  }
}
