import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { BASIC_CHALLENGE } from '../http/global-exception.filter';
import { formatAclEntry, Permission } from './acl';
import { AccessFiles } from './access-files.service';
import { Account } from './accounts-file';
import {
  bearerChallenge,
  InvalidTokenError,
  TooManyAuthFailuresError,
  UnauthenticatedError,
} from './auth.errors';
import { FailureLimiter, LoginAttempt } from './failure-limiter';
import { BearerTokens } from './oidc/bearer-tokens.service';
import { PasswordChecks } from './password-checks';
import { hashPassword } from './password-hash';
import { ANONYMOUS_PRINCIPAL, Principal } from './principal';

export { Principal } from './principal';

/** The hash queue's turn of the rechecks after SIGHUP, which come from no client. */
const RECHECKS = 'recheck';

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

/** Reads `Authorization: Bearer <token>`; an empty token is still a (malformed) bearer token. */
const bearerToken = (header: string | undefined): string | undefined =>
  /^Bearer(?:\s+|$)(.*)$/is.exec(header ?? '')?.[1].trim();

/** What `GET /v1/auth/whoami` answers (docs/extensions.md section 9). */
export interface Identity {
  principal: string;
  method: Principal['method'];
  groups: string[];
  acl: string[];
  expiresAt?: number;
}

/** What `GET /v1/auth/explain` answers: the access check's own decision. */
export interface Explanation {
  allowed: boolean;
  matchedEntry?: string;
  source?: string;
}

/**
 * Who a request comes from: an account of the accounts file (HTTP Basic) or, with
 * AUTH_OIDC_ISSUER, the bearer token of an OpenID Connect provider.
 */
@Injectable()
export class AuthService implements OnModuleInit {
  private readonly passwords = new PasswordChecks();
  private readonly limiter: FailureLimiter;
  /** Checked against when the user is unknown; no password matches it. */
  private decoy: Account = { name: '', passwordHash: '', acl: [] };
  /** What a 401 without valid credentials asks for, when not only HTTP Basic. */
  private readonly challenges?: string[];

  constructor(
    private readonly config: AppConfig,
    private readonly files: AccessFiles,
    private readonly bearer: BearerTokens,
  ) {
    this.limiter = new FailureLimiter(config.AUTH_MAX_FAILURES, config.AUTH_FAILURE_WINDOW_MS);
    if (bearer.enabled) {
      this.challenges = config.AUTH_ACCOUNTS_FILE
        ? [BASIC_CHALLENGE, bearerChallenge()]
        : [bearerChallenge()];
    }
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.AUTH_ENABLED) return;
    this.decoy = { name: '', passwordHash: await hashPassword(randomUUID()), acl: [] };
  }

  /**
   * The principal of valid credentials; 401 otherwise (a bearer token's with the reason), 429
   * after too many wrong users or passwords, 503 while the provider's keys are unknown.
   */
  authenticate(authorization: string | undefined, client: string): Promise<Principal> {
    return this.principalOf(authorization, client);
  }

  /**
   * The principal of credentials accepted before, asked again after the accounts or group ACLs
   * were read again (SIGHUP): not a login attempt, so it is not counted by the failed-login
   * limit (an account removed by the reload guessed nothing, and must not lock its address out).
   */
  recheck(authorization: string | undefined): Promise<Principal> {
    return this.principalOf(authorization, undefined);
  }

  /** {@link authenticate}, counted against `client`'s failed logins unless it is undefined. */
  private async principalOf(
    authorization: string | undefined,
    client: string | undefined,
  ): Promise<Principal> {
    const blockedFor = client === undefined ? 0 : this.limiter.blockedFor(client);
    if (blockedFor > 0) throw new TooManyAuthFailuresError(blockedFor);
    const token = this.bearer.enabled ? bearerToken(authorization) : undefined;
    if (token !== undefined) {
      if (token === '') throw new InvalidTokenError('malformed');
      return this.bearer.principalOf(token, this.files.groupAcls);
    }
    const credentials = basicCredentials(authorization);
    // A request without credentials (a page asking whether it must sign in, docs/behaviour.md)
    // guessed nothing and locks nobody out.
    if (!credentials) throw new UnauthenticatedError(this.challenges);
    const account = this.files.accounts.get(credentials.user);
    // An unknown user costs the same scrypt as a known one: the time tells no names.
    const matches = await this.passwordMatches(account ?? this.decoy, credentials, client);
    if (!account || !matches) throw new UnauthenticatedError(this.challenges);
    return new Principal(account.name, 'basic', account.acl);
  }

  /** Who the caller is, and its ACL in the order it is asked; `anonymous` without authentication. */
  whoami(principal: Principal = ANONYMOUS_PRINCIPAL): Identity {
    return {
      principal: principal.name,
      method: principal.method,
      groups: [...principal.groups],
      acl: principal.acl.map(formatAclEntry),
      ...(principal.expiresAt !== undefined && { expiresAt: principal.expiresAt }),
    };
  }

  /** The caller's own access check on `resource`, and the entry that decided it. */
  explain(
    resource: string,
    permission: Permission,
    principal: Principal = ANONYMOUS_PRINCIPAL,
  ): Explanation {
    return principal.decide(resource, permission);
  }

  /**
   * Whether `password` is `account`'s, each check counted against `client`'s failed logins (none
   * for a recheck): a place is reserved before the password is hashed (429 when there is none),
   * a failure is counted at the account name `user` tried, and a success clears only that.
   */
  private async passwordMatches(
    account: Account,
    { user, password }: { user: string; password: string },
    client: string | undefined,
  ): Promise<boolean> {
    if (this.passwords.known(account, password)) {
      if (client !== undefined) this.limiter.succeeded(client, user);
      return true;
    }
    if (client === undefined) return this.passwords.check(RECHECKS, account, password);
    // The same credentials sent again while checked share the hash, and need no place for it.
    const shared = this.passwords.sharedCheck(client, account, password);
    const attempt = shared ? undefined : this.reserve(client, user);
    let matches: boolean;
    try {
      matches = await (shared ?? this.passwords.check(client, account, password));
    } catch (error) {
      attempt?.abandoned();
      throw error;
    }
    if (matches) {
      if (attempt) attempt.succeeded();
      else this.limiter.succeeded(client, user);
    } else {
      // Each one sent is a failed login of its own, refused beyond the limit.
      (attempt ?? this.reserve(client, user)).failed();
    }
    return matches;
  }

  private reserve(client: string, user: string): LoginAttempt {
    const place = this.limiter.reserve(client, user);
    if ('retryAfterSeconds' in place) throw new TooManyAuthFailuresError(place.retryAfterSeconds);
    return place;
  }
}
