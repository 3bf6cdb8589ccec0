/** One client address's failed logins within its window, and its checks under way. */
interface AddressFailures {
  /** The start of the window: the first failure counted in it. */
  since: number;
  /** Failures in the window, by the account name each one tried. */
  byAccount: Map<string, number>;
  /** Their sum. */
  failures: number;
  /** Credential checks under way, each holding the place of the failure it may turn out to be. */
  reserved: number;
}

/** A credentials check under way, holding one failure's place until it ends one way or the other. */
export interface LoginAttempt {
  /** The credentials were wrong: the place becomes a failure of the address at that account. */
  failed(): void;
  /** The credentials were right: the place is freed, and that account's failures forgotten. */
  succeeded(): void;
  /** The check could not tell (an error): the place is freed, nothing counted. */
  abandoned(): void;
}

/** Why a check may not run now: wait that many seconds. */
export interface Refusal {
  retryAfterSeconds: number;
}

/**
 * Slows down password guessing: after `maxFailures` failed logins from one client address
 * within `windowMs` (from its first failure), it is refused until the window ends.
 *
 * A check is counted before it runs: it reserves a failure's place, so that concurrent guesses
 * beyond the limit are refused before any password is hashed, and frees it when the credentials
 * turn out right. Failures are kept by account name: a good login clears the address's failures
 * at that account only, so that holding one account does not reset the guesses at another.
 *
 * Per instance, in memory, by design: it protects this process's CPU (scrypt is expensive on
 * purpose) and holds no data that another instance would need.
 */
export class FailureLimiter {
  private readonly addresses = new Map<string, AddressFailures>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `client` may log in again after its failures, or 0 when it may now. */
  blockedFor(client: string): number {
    const entry = this.current(client);
    if (!entry || entry.failures < this.maxFailures) return 0;
    return Math.ceil((entry.since + this.windowMs - this.now()) / 1000);
  }

  /**
   * A place for one more check of `client`'s credentials for `account`, or a refusal when its
   * failures and the checks under way already reach the limit.
   */
  reserve(client: string, account: string): LoginAttempt | Refusal {
    const blockedFor = this.blockedFor(client);
    if (blockedFor > 0) return { retryAfterSeconds: blockedFor };
    const entry = this.current(client) ?? this.add(client);
    // The checks under way end within moments; the window's end may be far.
    if (entry.failures + entry.reserved >= this.maxFailures) return { retryAfterSeconds: 1 };
    entry.reserved++;
    let ended = false;
    const end = (outcome: (entry: AddressFailures) => void) => () => {
      if (ended) return;
      ended = true;
      // Never forgotten while it holds a reservation.
      const held = this.current(client)!;
      held.reserved--;
      outcome(held);
      this.forgetIfEmpty(client, held);
    };
    return {
      failed: end((held) => {
        if (held.failures === 0) held.since = this.now();
        held.failures++;
        held.byAccount.set(account, (held.byAccount.get(account) ?? 0) + 1);
      }),
      succeeded: end((held) => this.forgetAccount(held, account)),
      abandoned: end(() => undefined),
    };
  }

  /** A good login of `client` as `account` that needed no check: its failures there are forgotten. */
  succeeded(client: string, account: string): void {
    const entry = this.current(client);
    if (!entry) return;
    this.forgetAccount(entry, account);
    this.forgetIfEmpty(client, entry);
  }

  private forgetAccount(entry: AddressFailures, account: string): void {
    entry.failures -= entry.byAccount.get(account) ?? 0;
    entry.byAccount.delete(account);
  }

  /** The address's entry, its failures forgotten once their window has passed. */
  private current(client: string): AddressFailures | undefined {
    const entry = this.addresses.get(client);
    if (entry && entry.failures > 0 && this.now() - entry.since >= this.windowMs) {
      entry.failures = 0;
      entry.byAccount.clear();
      this.forgetIfEmpty(client, entry);
    }
    return this.addresses.get(client);
  }

  private add(client: string): AddressFailures {
    const entry = { since: this.now(), byAccount: new Map(), failures: 0, reserved: 0 };
    this.addresses.set(client, entry);
    if (this.addresses.size > 10_000) this.forgetExpired();
    return entry;
  }

  private forgetIfEmpty(client: string, entry: AddressFailures): void {
    if (entry.failures === 0 && entry.reserved === 0) this.addresses.delete(client);
  }

  private forgetExpired(): void {
    for (const client of [...this.addresses.keys()]) this.current(client);
  }
}
