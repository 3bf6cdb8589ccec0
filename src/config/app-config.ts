import { plainToInstance, Transform } from 'class-transformer';
import { readFileSync } from 'node:fs';
import {
  IsBoolean,
  IsEmpty,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { trustProxyProblem } from '../http/trust-proxy';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
const toBool = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^(true|false|1|0)$/i.test(value.trim())
    ? /^(true|1)$/i.test(value.trim())
    : value;
/** A claim's name, or a dotted path of names into nested objects. */
const CLAIM_PATH = /^[^\s.]+(\.[^\s.]+)*$/;
const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** The `sslmode` values of DATABASE_URL that the driver knows (docs/deployment.md, TLS to PostgreSQL). */
const SSLMODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];

/**
 * What is wrong with the `sslmode` of a database URL, if anything. The driver turns TLS on for
 * any `sslmode` it does not know (`disabled`, `verify_full`), so a misspelt one would fail later
 * as a TLS problem, or pass as another mode. Only the mode is echoed: the URL is a secret.
 */
function sslmodeProblem(url: string): string | undefined {
  const mode = /[?&]sslmode=([^&#]*)/.exec(url)?.[1];
  if (mode === undefined || SSLMODES.includes(mode)) return undefined;
  return `DATABASE_URL has sslmode=${mode}: sslmode must be one of ${SSLMODES.join(', ')}`;
}

/** The service's settings, read once from the environment and validated at boot. */
export class AppConfig {
  /**
   * TCP port of the HTTP server (the reference controller's REST port by default).
   * @group HTTP server
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 9091;

  /**
   * The address the HTTP server listens on: all interfaces by default, `127.0.0.1` for this
   * machine only.
   * @group HTTP server
   */
  @IsString()
  @IsNotEmpty()
  HOST = '0.0.0.0';

  /**
   * An existing PostgreSQL server; without it the service runs an embedded one.
   * @group Database
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  @ValidateBy({
    name: 'isKnownSslmode',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !sslmodeProblem(value),
      defaultMessage: (args) => sslmodeProblem(String(args?.value)) ?? '',
    },
  })
  DATABASE_URL?: string;

  /**
   * The least severe level logged (JSON lines on stdout); `info` is another name of `log`.
   * @group Logs and metrics
   */
  @Transform(({ value }: { value: unknown }) => (value === 'info' ? 'log' : value))
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'log';

  /**
   * `json`: a JSON object per line, for log collectors; `pretty`: a readable line per entry,
   * for a person at a terminal. By default pretty when stdout is a terminal, else json.
   * @group Logs and metrics
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(LOG_FORMATS, { message: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT?: LogFormat;

  /**
   * Prometheus metrics at `GET /metrics`; when false the route does not exist (404).
   * @group Logs and metrics
   */
  @Transform(toBool)
  @IsBoolean({ message: 'METRICS_ENABLED must be true or false' })
  METRICS_ENABLED = true;

  /**
   * The web console at `/console`; when false the path does not exist (404).
   * @group HTTP server
   */
  @Transform(toBool)
  @IsBoolean({ message: 'CONSOLE_ENABLED must be true or false' })
  CONSOLE_ENABLED = true;

  /**
   * Where the embedded PostgreSQL keeps its files (and its generated password); without
   * DATABASE_URL only.
   * @group Database
   */
  @IsString()
  @IsNotEmpty()
  DATA_DIR = './data';

  /**
   * Started by root, the embedded PostgreSQL runs as the unprivileged `postgres` account. When
   * that account cannot enter DATA_DIR (or the checkout holding its programs), they go here.
   * @group Database
   */
  @IsString()
  @IsNotEmpty()
  EMBEDDED_FALLBACK_DIR = '/var/lib/tributary';

  /**
   * Largest request body accepted (once inflated, when compressed); larger ones get 413.
   * @group HTTP server
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64 * 1024 * 1024)
  MAX_BODY_BYTES = 1024 * 1024;

  /**
   * Largest document `POST /v1/apply` accepts (10,000 streams fit in about 3 MiB); a YAML one may
   * not exceed it as JSON once its aliases are expanded either.
   * @group HTTP server
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256 * 1024 * 1024)
  APPLY_MAX_BODY_BYTES = 16 * 1024 * 1024;

  /**
   * How many rows a whole list (streams of a scope, a stream's scaling events) reads at a
   * time while its answer is sent: its memory is that of one batch, whatever the list's length.
   * @group Database
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  LIST_BATCH_SIZE = 1000;

  /**
   * Connections of the service's pool to PostgreSQL. Behind a connection pooler, allow at least
   * this many times the instances (docs/deployment.md).
   * @group Database
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  DB_POOL_SIZE = 10;

  /**
   * Upper bound of any single SQL statement.
   * @group Database
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  DB_STATEMENT_TIMEOUT_MS = 5000;

  /**
   * Upper bound of opening a connection to PostgreSQL.
   * @group Database
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  DB_CONNECT_TIMEOUT_MS = 3000;

  /**
   * How long start-up waits for the server of DATABASE_URL to accept connections (it may be
   * starting beside the service), retrying with backoff; 0 tries once. Wrong credentials or a
   * missing database fail at once.
   * @group Database
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  DB_STARTUP_TIMEOUT_MS = 30_000;

  /**
   * A request (headers and body) must arrive within this, or it gets 408.
   * @group HTTP server
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /**
   * A request's headers must arrive within this (slow-header clients are cut off).
   * @group HTTP server
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /**
   * An idle keep-alive connection is closed after this.
   * @group HTTP server
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5000;

  /**
   * Every /v1 route needs credentials (HTTP Basic of an account in AUTH_ACCOUNTS_FILE, or a bearer
   * token of AUTH_OIDC_ISSUER) and the permission the reference asks for (docs/security.md).
   * @group Security
   */
  @Transform(toBool)
  @IsBoolean({ message: 'AUTH_ENABLED must be true or false' })
  AUTH_ENABLED = false;

  /**
   * Accounts and their ACLs, one `user:passwordhash:acl` line each (`npm run accounts`); read
   * at start and on SIGHUP. Optional when bearer tokens are accepted (AUTH_OIDC_ISSUER).
   * @group Security
   */
  @Transform(emptyToUndefined)
  @ValidateIf(
    (config: AppConfig) =>
      (config.AUTH_ENABLED && config.AUTH_OIDC_ISSUER === undefined) ||
      config.AUTH_ACCOUNTS_FILE !== undefined,
  )
  @IsString({ message: 'AUTH_ACCOUNTS_FILE is required when AUTH_ENABLED is true' })
  @IsNotEmpty({ message: 'AUTH_ACCOUNTS_FILE is required when AUTH_ENABLED is true' })
  AUTH_ACCOUNTS_FILE?: string;

  /**
   * An OpenID Connect provider whose bearer tokens (JWT) are accepted beside the accounts
   * (docs/extensions.md section 9): its keys come from its discovery document's `jwks_uri`.
   * @group Security
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s?#]+$/, {
    message: 'AUTH_OIDC_ISSUER must be an http(s) URL without query or fragment',
  })
  AUTH_OIDC_ISSUER?: string;

  /**
   * What a token's `aud` must contain; required with AUTH_OIDC_ISSUER.
   * @group Security
   */
  @Transform(emptyToUndefined)
  @ValidateIf(
    (config: AppConfig) =>
      config.AUTH_OIDC_ISSUER !== undefined || config.AUTH_OIDC_AUDIENCE !== undefined,
  )
  @IsString({ message: 'AUTH_OIDC_AUDIENCE is required with AUTH_OIDC_ISSUER' })
  @IsNotEmpty({ message: 'AUTH_OIDC_AUDIENCE is required with AUTH_OIDC_ISSUER' })
  AUTH_OIDC_AUDIENCE?: string;

  /**
   * The claim naming a token's principal, as audit and logs show it.
   * @group Security
   */
  @Matches(CLAIM_PATH, { message: 'AUTH_OIDC_PRINCIPAL_CLAIM must be a claim name' })
  AUTH_OIDC_PRINCIPAL_CLAIM = 'sub';

  /**
   * The claim holding a token's groups; a dotted path (`realm_access.roles`) reaches inside.
   * @group Security
   */
  @Matches(CLAIM_PATH, { message: 'AUTH_OIDC_GROUPS_CLAIM must be a claim name or dotted path' })
  AUTH_OIDC_GROUPS_CLAIM = 'groups';

  /**
   * A claim holding ACL entries in the accounts file's form; none by default.
   * @group Security
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(CLAIM_PATH, { message: 'AUTH_OIDC_ACL_CLAIM must be a claim name or dotted path' })
  AUTH_OIDC_ACL_CLAIM?: string;

  /**
   * YAML `groups: {<group>: "<acl>"}`: the ACL of each group; read at start and on SIGHUP.
   * @group Security
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AUTH_GROUP_ACLS_FILE?: string;

  /**
   * Seconds of clock difference allowed when checking a token's `exp` and `nbf`.
   * @group Security
   */
  @Transform(toInt)
  @IsInt({ message: 'AUTH_OIDC_CLOCK_TOLERANCE_S must be a whole number of seconds' })
  @Min(0)
  @Max(3600)
  AUTH_OIDC_CLOCK_TOLERANCE_S = 30;

  /**
   * A public client of the provider (authorization code with PKCE) that Swagger UI's Authorize
   * and the console sign in with; register `<this service>/docs/oauth2-redirect.html` and
   * `<this service>/console/sign-in/callback` as its redirect URIs (docs/security.md).
   * @group Security
   */
  @Transform(emptyToUndefined)
  @ValidateIf(
    (config: AppConfig) =>
      config.AUTH_OIDC_UI_CLIENT_ID !== undefined && config.AUTH_OIDC_ISSUER === undefined,
  )
  @IsEmpty({ message: 'AUTH_OIDC_UI_CLIENT_ID needs AUTH_OIDC_ISSUER' })
  AUTH_OIDC_UI_CLIENT_ID?: string;

  /**
   * With auth on, the health routes (but details) and the probes still need no credentials; the
   * `details` of their answers are for callers allowed `/v1/health/details` alone.
   * @group Security
   */
  @Transform(toBool)
  @IsBoolean({ message: 'AUTH_HEALTH_OPEN must be true or false' })
  AUTH_HEALTH_OPEN = true;

  /**
   * Failed logins from one client within AUTH_FAILURE_WINDOW_MS before it gets 429; checks under
   * way count against it (docs/behaviour.md section 8).
   * @group Security
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_MAX_FAILURES = 5;

  /**
   * The window, in milliseconds, over which AUTH_MAX_FAILURES counts a client's failed logins;
   * a client refused with 429 may try again when it ends.
   * @group Security
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  AUTH_FAILURE_WINDOW_MS = 60_000;

  /**
   * Serve HTTPS only (TLS 1.2 and later) with this certificate chain (PEM) and the key of
   * TLS_KEY_FILE; set both or neither.
   * @group Security
   */
  @Transform(emptyToUndefined)
  @ValidateIf(
    (config: AppConfig) => config.TLS_KEY_FILE !== undefined || config.TLS_CERT_FILE !== undefined,
  )
  @IsString({ message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' })
  @IsNotEmpty({ message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' })
  TLS_CERT_FILE?: string;

  /**
   * The private key (PEM) of TLS_CERT_FILE's certificate; set both or neither.
   * @group Security
   */
  @Transform(emptyToUndefined)
  @ValidateIf(
    (config: AppConfig) => config.TLS_KEY_FILE !== undefined || config.TLS_CERT_FILE !== undefined,
  )
  @IsString({ message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' })
  @IsNotEmpty({ message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' })
  TLS_KEY_FILE?: string;

  /**
   * Origins allowed to call the API from a browser, comma-separated (`*` for any); without it
   * CORS is off.
   * @group Security
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\s*(\*|https?:\/\/[^,\s]+)(\s*,\s*https?:\/\/[^,\s]+)*\s*$/, {
    message: 'CORS_ORIGINS must be * or a comma-separated list of http(s) origins',
  })
  CORS_ORIGINS?: string;

  /**
   * The proxies (load balancers) whose `X-Forwarded-For`, `-Proto` and `-Host` are believed: a
   * number of hops, or their addresses and CIDR ranges (`loopback` and the other names of
   * Express's `trust proxy`). Unset, the client is whoever opened the connection.
   * @group HTTP server
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && !trustProxyProblem(value),
      defaultMessage: (args) =>
        trustProxyProblem(String(args?.value)) ?? 'TRUST_PROXY must be a string',
    },
  })
  TRUST_PROXY?: string;

  /**
   * Requests per minute allowed from one client address, per instance (the probes are exempt);
   * over it, 429 with `Retry-After`. 0 turns rate limiting off.
   * @group Security
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  RATE_LIMIT_PER_MINUTE = 0;

  /**
   * How long a POST's answer is kept for retries with the same `Idempotency-Key`; older keys
   * are forgotten (and purged in the background).
   * @group Idempotency and audit
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 365)
  IDEMPOTENCY_TTL_HOURS = 24;

  /**
   * The change feed (docs/extensions.md section 8): how often, in milliseconds, an instance
   * looks for new events when it cannot LISTEN (through a transaction pooler, or while its
   * listening connection is being opened again).
   * @group Change feed
   */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  EVENTS_POLL_MS = 1000;

  /**
   * Milliseconds between two comment lines on a Server-Sent Event stream of the change feed
   * (section 8 promises one at least every 15 s).
   * @group Change feed
   */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(15_000)
  EVENTS_HEARTBEAT_MS = 10_000;

  /**
   * Milliseconds a stream's client may take nothing of what waits for it before it is cut off.
   * @group Change feed
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  EVENTS_SLOW_CLIENT_MS = 30_000;

  /**
   * Server-Sent Event streams of the change feed open at once on one instance; then 503.
   * @group Change feed
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  EVENTS_MAX_STREAMS = 1000;

  /**
   * Long polls of the change feed (`wait` above 0) waiting at once on one instance; then 503.
   * Each holds a connection and its request's memory for up to a minute.
   * @group Change feed
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  EVENTS_MAX_LONG_POLLS = 1000;

  /**
   * Streams, and as many waiting long polls, that one client may hold on one instance (a
   * principal with authentication on, else an address); then 503, so that one client cannot
   * take every place of EVENTS_MAX_STREAMS or EVENTS_MAX_LONG_POLLS.
   * @group Change feed
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  EVENTS_MAX_STREAMS_PER_CLIENT = 100;

  /**
   * How long the change feed's events are kept; older ones are deleted in the background, and a
   * position behind them is answered 410.
   * @group Change feed
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 3650)
  EVENTS_RETENTION_HOURS = 168;

  /**
   * How long the audit trail keeps its events, in days (docs/extensions.md section 12); older
   * ones are deleted in the background.
   * @group Idempotency and audit
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(36_500)
  AUDIT_RETENTION_DAYS = 365;

  /**
   * Scaling by load (docs/extensions.md section 11): a segment reported on for no longer than
   * this is left alone, whatever its rates (the reference's cooldown).
   * @group Scaling by load
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(7 * 86_400_000)
  AUTOSCALE_COOLDOWN_MS = 600_000;

  /**
   * After a segment is scaled up, or acted on when cold, scaling it the same way again is muted
   * this long (the reference's mute).
   * @group Scaling by load
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(7 * 86_400_000)
  AUTOSCALE_MUTE_MS = 600_000;

  /**
   * How long a segment wanted down stays marked cold: a neighbour wanted down meanwhile merges
   * with it.
   * @group Scaling by load
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(7 * 86_400_000)
  AUTOSCALE_COLD_MS = 600_000;

  /**
   * An active segment of a reported stream that is not reported for this long is taken as cold
   * for good.
   * @group Scaling by load
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(7 * 86_400_000)
  AUTOSCALE_SILENCE_MS = 1_200_000;

  /**
   * How often one instance looks for silent segments.
   * @group Scaling by load
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(86_400_000)
  AUTOSCALE_SWEEP_MS = 60_000;

  /**
   * How long a health result is reused: a storm of probes costs one database ping per moment;
   * 0 reuses nothing.
   * @group Health and shutdown
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  HEALTH_CACHE_MS = 1000;

  /**
   * Upper bound of each health check that talks to the database.
   * @group Health and shutdown
   */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  HEALTH_TIMEOUT_MS = 1000;

  /**
   * Heap in use above which the process reports itself unhealthy (and not alive).
   * @group Health and shutdown
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  HEALTH_HEAP_LIMIT_MB = 512;

  /**
   * Resident memory above which the process reports itself unhealthy (and not alive).
   * @group Health and shutdown
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  HEALTH_RSS_LIMIT_MB = 1024;

  /**
   * Free space under which the disk holding DATA_DIR is reported DOWN.
   * @group Health and shutdown
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  HEALTH_DISK_MIN_FREE_MB = 100;

  /**
   * Event-loop delay (99th percentile over a second) above which the process is not alive.
   * @group Health and shutdown
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  HEALTH_EVENT_LOOP_LAG_LIMIT_MS = 1000;

  /**
   * On SIGTERM the service reports not-ready at once, keeps serving for this long (so load
   * balancers stop routing to it), then stops accepting connections and drains. Give it your
   * load balancer's probe period.
   * @group Health and shutdown
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_DELAY_MS = 0;

  /**
   * Requests still running this long after the listener closed are cut off.
   * @group Health and shutdown
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;
}

export class InvalidConfigError extends Error {
  constructor(readonly problems: string[]) {
    // One problem, one line (as every start-up failure); several, a list.
    super(
      problems.length === 1
        ? `Invalid configuration: ${problems[0]}`
        : `Invalid configuration:\n  - ${problems.join('\n  - ')}`,
    );
    this.name = 'InvalidConfigError';
  }
}

/**
 * The settings that hold secrets. Each may be given as a file instead, `<NAME>_FILE`, as Docker
 * secrets and Kubernetes secret volumes hand them over; an invalid one is never echoed.
 */
const SECRET_SETTINGS: readonly string[] = ['DATABASE_URL'];

const isSet = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== '';

/** The environment with each secret read from its `_FILE`, and what was wrong with those. */
function withSecretFiles(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; problems: string[] } {
  const resolved = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_SETTINGS) {
    const file = env[`${name}_FILE`];
    if (!isSet(file)) continue;
    if (isSet(env[name])) {
      problems.push(`${name} and ${name}_FILE are both set: set only one of them`);
      continue;
    }
    try {
      const value = readFileSync(file, 'utf8').trim();
      if (value === '') problems.push(`${name}_FILE names an empty file (${file})`);
      else resolved[name] = value;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      problems.push(`${name}_FILE names a file that cannot be read (${code}: ${file})`);
    }
  }
  return { env: resolved, problems };
}

/** Reads and validates the settings from an environment; throws with every problem listed. */
export function loadConfig(environment: NodeJS.ProcessEnv): AppConfig {
  const { env, problems } = withSecretFiles(environment);
  const known = Object.keys(new AppConfig());
  const present = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => known.includes(key) && value !== undefined),
  );
  const config = plainToInstance(AppConfig, present);
  for (const error of validateSync(config)) {
    // One message per setting. A value that is not a whole number fails its bounds as well, and
    // the bounds run first: say what is wrong with it ("must be an integer"), not that `ten` is
    // "greater than 65535".
    const { isInt, ...others } = error.constraints ?? {};
    const message = isInt ?? Object.values(others)[0];
    if (message !== undefined) {
      problems.push(
        SECRET_SETTINGS.includes(error.property)
          ? message
          : `${message} (got ${JSON.stringify(env[error.property])})`,
      );
    }
  }
  if (problems.length > 0) throw new InvalidConfigError(problems);
  return config;
}
