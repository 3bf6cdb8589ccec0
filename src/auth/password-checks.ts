import { timingSafeEqual } from 'node:crypto';
import { Account } from './accounts-file';
import { HashQueue } from './hash-queue';
import { parsePasswordHash, passwordDigest, verifyPassword } from './password-hash';

/** Which account, as its hash stands: a new hash in the accounts file is a new account here. */
const accountKey = (account: Account): string => `${account.name}\0${account.passwordHash}`;

/**
 * Passwords checked against the accounts' scrypt hashes. A password verified once is recognised
 * again by its digest, without scrypt; only a success is fast, every failure pays the full
 * hash. Each hash runs in its client's turn of the {@link HashQueue}, and the same credentials
 * sent again from one client while they are checked share that one hash.
 */
export class PasswordChecks {
  /** Passwords already verified with scrypt, as digests, by account. */
  private readonly verified = new Map<string, Buffer>();
  /** Hashes under way, by client, account and password digest. */
  private readonly underway = new Map<string, Promise<boolean>>();

  constructor(private readonly queue = new HashQueue()) {}

  /** Whether `password` is the one verified before for `account`; no hash runs. */
  known(account: Account, password: string): boolean {
    const known = this.verified.get(accountKey(account));
    return known !== undefined && timingSafeEqual(known, passwordDigest(password));
  }

  /** The hash of the same credentials from `client` already under way, if there is one. */
  sharedCheck(client: string, account: Account, password: string): Promise<boolean> | undefined {
    return this.underway.get(this.underwayKey(client, account, password));
  }

  /** Hashes `password` in `client`'s turn: whether it is `account`'s. */
  check(client: string, account: Account, password: string): Promise<boolean> {
    const key = this.underwayKey(client, account, password);
    const check = this.queue
      .run(client, () => verifyPassword(password, parsePasswordHash(account.passwordHash)))
      .then((matches) => {
        if (matches) this.verified.set(accountKey(account), passwordDigest(password));
        return matches;
      })
      .finally(() => this.underway.delete(key));
    this.underway.set(key, check);
    return check;
  }

  private underwayKey(client: string, account: Account, password: string): string {
    return `${client}\0${accountKey(account)}\0${passwordDigest(password).toString('hex')}`;
  }
}
