import type { Principal } from '../auth/principal';

/** Which limit refused a watcher: the instance's, or the one of each client. */
export type SlotRefusal = 'instance' | 'client';

/** Gives a place back; once, however often it is called. */
export type ReleaseSlot = () => void;

/**
 * Who a watcher of the feed counts against: the principal with authentication on (whatever
 * address it calls from), else the client's address (the one TRUST_PROXY lets the service see).
 */
export const holderOf = (principal: Principal | undefined, address: string | undefined): string =>
  principal ? `principal:${principal.name}` : `address:${address ?? ''}`;

/**
 * The places of one kind of watcher of the change feed (streams, or waiting long polls) on this
 * instance: at most `max` in all and `perClient` for one holder (docs/extensions.md section 8).
 * Counted in this process's memory on purpose: what they guard is this process's own sockets
 * and memory, which no other instance shares; a client refused here may go to another.
 */
export class WatcherSlots {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(
    readonly max: number,
    readonly perClient: number,
  ) {}

  /** How many places are taken, in all or by one holder. */
  taken(holder?: string): number {
    return holder === undefined ? this.total : (this.held.get(holder) ?? 0);
  }

  /** A place for `holder`, as the function that gives it back; else the limit that refuses it. */
  take(holder: string): ReleaseSlot | SlotRefusal {
    const mine = this.taken(holder);
    if (mine >= this.perClient) return 'client';
    if (this.total >= this.max) return 'instance';
    this.held.set(holder, mine + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = this.taken(holder) - 1;
      if (left === 0) this.held.delete(holder);
      else this.held.set(holder, left);
    };
  }
}
