import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { createRemoteJWKSet, JWTVerifyGetKey } from 'jose';
import { jose } from '../../common/required-on-first-use';
import { AppConfig } from '../../config/app-config';
import { IssuerUnavailableError } from '../auth.errors';

/** How long a request to the provider (discovery document, keys) may take. */
const FETCH_TIMEOUT_MS = 5_000;
/** A token with an unknown `kid` fetches the keys again unless the last fetch is this recent. */
const KEYS_COOLDOWN_MS = 30_000;
/** While the provider has never answered, it is asked again this often. */
const RETRY_MS = 5_000;
/** Known keys are fetched again this often, so that keys the provider dropped are dropped here. */
const REFRESH_MS = 10 * 60_000;

type RemoteKeySet = ReturnType<typeof createRemoteJWKSet>;

/** What the health contributor `oidc` reports. */
export interface IssuerHealth {
  up: boolean;
  details: Record<string, string>;
}

const reasonOf = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause?.code ? `${message} (${cause.code})` : message;
};

/**
 * The OpenID Connect provider of AUTH_OIDC_ISSUER (docs/extensions.md section 9): its discovery
 * document, and its keys through jose's remote key set, cached with jose's cooldown. The service
 * starts whether or not the provider answers; until its keys are known, tokens cannot be
 * checked (503), and it is asked again in the background. Known keys stay in use while the
 * provider is down.
 */
@Injectable()
export class OidcIssuer implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OidcIssuer.name);
  private keySet?: RemoteKeySet;
  private connecting?: Promise<void>;
  private lastProblem = 'the discovery document has not been fetched yet';
  private timer?: NodeJS.Timeout;
  private tokenEndpoint?: string;
  private keysFetched = 0;

  constructor(private readonly config: AppConfig) {}

  /** Whether bearer tokens are accepted at all. */
  get enabled(): boolean {
    return this.config.AUTH_ENABLED && this.config.AUTH_OIDC_ISSUER !== undefined;
  }

  get issuer(): string {
    return this.config.AUTH_OIDC_ISSUER!;
  }

  async onModuleInit(): Promise<void> {
    if (!this.enabled) return;
    await this.connect();
    this.schedule();
  }

  onModuleDestroy(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Changes whenever the provider's keys may have: tokens verified before are checked again. */
  get keysVersion(): number {
    return this.keysFetched;
  }

  /** The provider's keys, for jose's `jwtVerify`; 503 while they have never been fetched. */
  get keys(): JWTVerifyGetKey {
    if (!this.keySet) throw new IssuerUnavailableError(this.lastProblem);
    return this.keySet;
  }

  /**
   * The origins a browser page of this service calls to sign in (Swagger UI): the issuer's,
   * where its discovery document is, and its token endpoint's, once known.
   */
  browserOrigins(): string[] {
    const urls = [this.issuer, this.tokenEndpoint].filter((url) => url !== undefined);
    return [...new Set(urls.map((url) => new URL(url).origin))];
  }

  /** The health contributor `oidc`: whether the provider answers, and what is known of it. */
  async health(timeoutMs: number): Promise<IssuerHealth> {
    if (!this.keySet) {
      // The attempt goes on (and the next probe may find it done); the probe waits no longer.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.connect(),
        new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    }
    const details: Record<string, string> = { issuer: this.issuer };
    if (!this.keySet) return { up: false, details: { ...details, message: this.lastProblem } };
    details.keys = String(this.keySet.jwks()?.keys.length ?? 0);
    try {
      await this.discover(Math.min(timeoutMs, FETCH_TIMEOUT_MS));
      return { up: true, details };
    } catch (error) {
      // Tokens signed with the known keys are still accepted.
      return { up: false, details: { ...details, message: reasonOf(error) } };
    }
  }

  /** The discovery document's `jwks_uri`, once its `issuer` is checked. */
  private async discover(timeoutMs: number): Promise<URL> {
    const url = `${this.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const document = (await response.json()) as {
      issuer?: unknown;
      jwks_uri?: unknown;
      token_endpoint?: unknown;
    };
    if (document.issuer !== this.issuer) {
      throw new Error(
        `${url} names the issuer ${JSON.stringify(document.issuer)}, not AUTH_OIDC_ISSUER`,
      );
    }
    if (typeof document.jwks_uri !== 'string') throw new Error(`${url} has no jwks_uri`);
    if (typeof document.token_endpoint === 'string') this.tokenEndpoint = document.token_endpoint;
    return new URL(document.jwks_uri);
  }

  /** Discovery, then the keys; one attempt at a time. */
  private connect(): Promise<void> {
    this.connecting ??= (async () => {
      try {
        const keySet = jose().createRemoteJWKSet(await this.discover(FETCH_TIMEOUT_MS), {
          timeoutDuration: FETCH_TIMEOUT_MS,
          cooldownDuration: KEYS_COOLDOWN_MS,
          // Never stale: the refresh below replaces them, and only when the provider answers.
          cacheMaxAge: Infinity,
          // Read as a property: destructured, the key would lose jose's symbol type.
          [jose().customFetch]: async (url, init) => {
            const response = await fetch(url, init);
            if (response.ok) this.keysFetched++;
            return response;
          },
        });
        await keySet.reload();
        this.keySet = keySet;
        this.logger.log(`keys of ${this.issuer} fetched`);
      } catch (error) {
        const problem = `no keys from ${this.issuer}: ${reasonOf(error)}`;
        // Told once per problem, not at every attempt while it lasts.
        if (problem !== this.lastProblem) {
          this.logger.warn(`${problem}; bearer tokens are refused until it can`);
        }
        this.lastProblem = problem;
      } finally {
        this.connecting = undefined;
      }
    })();
    return this.connecting;
  }

  /** Until the keys are known, asks again every few seconds; then refreshes them now and then. */
  private schedule(): void {
    const known = this.keySet !== undefined;
    this.timer = setTimeout(
      () => {
        const attempt = this.keySet
          ? this.keySet.reload().catch((error: unknown) => {
              this.logger.warn(`keys of ${this.issuer} not refreshed: ${reasonOf(error)}`);
            })
          : this.connect();
        void attempt.then(() => {
          if (this.timer) this.schedule();
        });
      },
      known ? REFRESH_MS : RETRY_MS,
    );
    this.timer.unref();
  }
}
