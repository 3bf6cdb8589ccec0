import { Injectable, OnModuleInit } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { AppConfig } from '../config/app-config';
import { covers, Permission, permissionOn } from './acl';
import { Account, parseAccounts } from './accounts-file';
import { TooManyAuthFailuresError, UnauthenticatedError } from './auth.errors';
import { FailureLimiter } from './failure-limiter';
import { hashPassword, parsePasswordHash, passwordDigest, verifyPassword } from './password-hash';
import { randomUUID, timingSafeEqual } from 'node:crypto';

/** Who a request comes from, and what they may do. */
export interface Principal {
  name: string;
  allows(resource: string, permission: Permission): boolean;
}

/** Reads `Authorization: Basic base64(user:password)`. */
function basicCredentials(
  header: string | undefined,
): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Accounts from AUTH_ACCOUNTS_FILE, read once at start. */
@Injectable()
export class AuthService implements OnModuleInit {
  private accounts = new Map<string, Account>();
  /** Passwords already verified with scrypt, as digests, keyed by account and stored hash. */
  private readonly verified = new Map<string, Buffer>();
  private readonly limiter: FailureLimiter;
  /** Checked against when the user is unknown; no password matches it. */
  private decoy: Account = { name: '', passwordHash: '', acl: [] };

  constructor(private readonly config: AppConfig) {
    this.limiter = new FailureLimiter(config.AUTH_MAX_FAILURES, config.AUTH_FAILURE_WINDOW_MS);
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.AUTH_ENABLED) return;
    this.accounts = parseAccounts(readFileSync(this.config.AUTH_ACCOUNTS_FILE!, 'utf8'));
    this.decoy = { name: '', passwordHash: await hashPassword(randomUUID()), acl: [] };
  }

  /** The principal of valid credentials; 401 otherwise, 429 after too many failures. */
  async authenticate(authorization: string | undefined, client: string): Promise<Principal> {
    const blockedFor = this.limiter.blockedFor(client);
    if (blockedFor > 0) throw new TooManyAuthFailuresError(blockedFor);
    const credentials = basicCredentials(authorization);
    const account = credentials && this.accounts.get(credentials.user);
    // An unknown user costs the same scrypt as a known one: the time tells no names.
    const matches = credentials
      ? await this.passwordMatches(account ?? this.decoy, credentials.password)
      : false;
    if (!credentials || !account || !matches) {
      this.limiter.failed(client);
      throw new UnauthenticatedError();
    }
    this.limiter.succeeded(client);
    return {
      name: account.name,
      allows: (resource, permission) => covers(permissionOn(account.acl, resource), permission),
    };
  }

  private async passwordMatches(account: Account, password: string): Promise<boolean> {
    const key = `${account.name}\0${account.passwordHash}`;
    const digest = passwordDigest(password);
    const known = this.verified.get(key);
    // Only a success is fast; every failure pays the full scrypt, as for an unknown user.
    if (known && timingSafeEqual(known, digest)) return true;
    const matches = await verifyPassword(password, parsePasswordHash(account.passwordHash));
    if (matches) this.verified.set(key, digest);
    return matches;
  }
}
