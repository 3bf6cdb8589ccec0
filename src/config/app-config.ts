import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
  ValidateIf,
} from 'class-validator';

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
const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** The service's settings, read once from the environment and validated at boot. */
export class AppConfig {
  /** TCP port of the HTTP server (the reference controller's REST port by default). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 9091;

  @IsString()
  @IsNotEmpty()
  HOST = '0.0.0.0';

  /** An existing PostgreSQL server; without it the service runs an embedded one. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  /** The least severe level logged (JSON lines on stdout); `info` is another name of `log`. */
  @Transform(({ value }: { value: unknown }) => (value === 'info' ? 'log' : value))
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'log';

  /**
   * `json`: a JSON object per line, for log collectors; `pretty`: a readable line per entry,
   * for a person at a terminal. By default pretty when stdout is a terminal, else json.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(LOG_FORMATS, { message: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT?: LogFormat;

  /** Prometheus metrics at `GET /metrics`; when false the route does not exist (404). */
  @Transform(toBool)
  @IsBoolean({ message: 'METRICS_ENABLED must be true or false' })
  METRICS_ENABLED = true;

  /** Where the embedded PostgreSQL keeps its files. */
  @IsString()
  @IsNotEmpty()
  DATA_DIR = './data';

  /**
   * Started by root, the embedded PostgreSQL runs as the unprivileged `postgres` account. When
   * that account cannot enter DATA_DIR (or the checkout holding its programs), they go here.
   */
  @IsString()
  @IsNotEmpty()
  EMBEDDED_FALLBACK_DIR = '/var/lib/tributary';

  /** Largest request body accepted; larger ones get 413. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64 * 1024 * 1024)
  MAX_BODY_BYTES = 1024 * 1024;

  /** Largest document `POST /v1/apply` accepts (10,000 streams fit in about 3 MiB). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256 * 1024 * 1024)
  APPLY_MAX_BODY_BYTES = 16 * 1024 * 1024;

  /**
   * How many rows a whole list (streams of a scope, a stream's scaling events) reads at a
   * time while its answer is sent: its memory is that of one batch, whatever the list's length.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  LIST_BATCH_SIZE = 1000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  DB_POOL_SIZE = 10;

  /** Upper bound of any single SQL statement. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  DB_STATEMENT_TIMEOUT_MS = 5000;

  /** Upper bound of opening a connection to PostgreSQL. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  DB_CONNECT_TIMEOUT_MS = 3000;

  /**
   * How long start-up waits for the server of DATABASE_URL to accept connections (it may be
   * starting beside the service), retrying with backoff. Wrong credentials or a missing
   * database fail at once.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  DB_STARTUP_TIMEOUT_MS = 30_000;

  /** A request (headers and body) must arrive within this, or it gets 408. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /** A request's headers must arrive within this (slow-header clients are cut off). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** An idle keep-alive connection is closed after this. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5000;

  /** Every /v1 route needs HTTP Basic credentials of an account in AUTH_ACCOUNTS_FILE. */
  @Transform(toBool)
  @IsBoolean({ message: 'AUTH_ENABLED must be true or false' })
  AUTH_ENABLED = false;

  /** Accounts and their ACLs, one `user:passwordhash:acl` line each (`npm run accounts`). */
  @Transform(emptyToUndefined)
  @ValidateIf((config: AppConfig) => config.AUTH_ENABLED || config.AUTH_ACCOUNTS_FILE !== undefined)
  @IsString({ message: 'AUTH_ACCOUNTS_FILE is required when AUTH_ENABLED is true' })
  @IsNotEmpty({ message: 'AUTH_ACCOUNTS_FILE is required when AUTH_ENABLED is true' })
  AUTH_ACCOUNTS_FILE?: string;

  /** With auth on, the health routes (but details) and the probes still need no credentials. */
  @Transform(toBool)
  @IsBoolean({ message: 'AUTH_HEALTH_OPEN must be true or false' })
  AUTH_HEALTH_OPEN = true;

  /** Failed logins from one client within AUTH_FAILURE_WINDOW_MS before it gets 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_MAX_FAILURES = 5;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  AUTH_FAILURE_WINDOW_MS = 60_000;

  /** Serve HTTPS only (TLS 1.2 and later) with this certificate chain (PEM) ... */
  @Transform(emptyToUndefined)
  @ValidateIf(
    (config: AppConfig) => config.TLS_KEY_FILE !== undefined || config.TLS_CERT_FILE !== undefined,
  )
  @IsString({ message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' })
  @IsNotEmpty({ message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' })
  TLS_CERT_FILE?: string;

  /** ... and this private key (PEM). */
  @Transform(emptyToUndefined)
  @ValidateIf(
    (config: AppConfig) => config.TLS_KEY_FILE !== undefined || config.TLS_CERT_FILE !== undefined,
  )
  @IsString({ message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' })
  @IsNotEmpty({ message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' })
  TLS_KEY_FILE?: string;

  /** Origins allowed to call the API from a browser, comma-separated; none by default. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\s*(\*|https?:\/\/[^,\s]+)(\s*,\s*https?:\/\/[^,\s]+)*\s*$/, {
    message: 'CORS_ORIGINS must be * or a comma-separated list of http(s) origins',
  })
  CORS_ORIGINS?: string;

  /** Requests per minute allowed from one client; 0 turns rate limiting off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  RATE_LIMIT_PER_MINUTE = 0;

  /**
   * How long a POST's answer is kept for retries with the same `Idempotency-Key`; older keys
   * are forgotten (and purged in the background).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 365)
  IDEMPOTENCY_TTL_HOURS = 24;

  /** How long a health result is reused: a storm of probes costs one database ping per moment. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  HEALTH_CACHE_MS = 1000;

  /** Upper bound of each health check that talks to the database. */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  HEALTH_TIMEOUT_MS = 1000;

  /** Heap in use above which the process reports itself unhealthy (and not alive). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  HEALTH_HEAP_LIMIT_MB = 512;

  /** Resident memory above which the process reports itself unhealthy (and not alive). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  HEALTH_RSS_LIMIT_MB = 1024;

  /** Free space under which the disk holding DATA_DIR is reported DOWN. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  HEALTH_DISK_MIN_FREE_MB = 100;

  /** Event-loop delay (99th percentile over a second) above which the process is not alive. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  HEALTH_EVENT_LOOP_LAG_LIMIT_MS = 1000;

  /**
   * On SIGTERM the service reports not-ready at once, keeps serving for this long (so load
   * balancers stop routing to it), then stops accepting connections and drains.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_DELAY_MS = 0;

  /** Requests still running this long after the listener closed are cut off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;
}

export class InvalidConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'InvalidConfigError';
  }
}

/** Reads and validates the settings from an environment; throws with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv): AppConfig {
  const known = Object.keys(new AppConfig());
  const present = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => known.includes(key) && value !== undefined),
  );
  const config = plainToInstance(AppConfig, present);
  const errors = validateSync(config, { stopAtFirstError: true });
  if (errors.length > 0) {
    throw new InvalidConfigError(
      errors.flatMap((error) =>
        Object.values(error.constraints ?? {}).map(
          (message) => `${message} (got ${JSON.stringify(env[error.property])})`,
        ),
      ),
    );
  }
  return config;
}
