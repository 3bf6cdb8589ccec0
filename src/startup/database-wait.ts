import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { tlsFailure } from './database-tls';
import { StartupError } from './startup-error';

/** PostgreSQL error codes that waiting will not fix. */
const FINAL = new Set(['28P01', '28000', '3D000']);
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

/** Where DATABASE_URL points, as start-up failures name it. */
export interface Target {
  where: string;
  user: string;
  database: string;
}

/** Where a URL points, for messages: never its password. */
export function describeTarget(url: string): Target {
  const parsed = new URL(url);
  return {
    where: `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`,
    user: decodeURIComponent(parsed.username) || 'the default user',
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'the default database',
  };
}

function reason(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code && !/^[0-9A-Z]{5}$/.test(code) ? code : (message ?? String(error)).split('\n')[0];
}

/** The failure as one line that says what to do, or undefined if it may pass by waiting. */
export function finalFailure(
  error: unknown,
  target: Target,
  url: string,
): StartupError | undefined {
  const tls = tlsFailure(error, target, url);
  if (tls) return tls;
  const code = (error as { code?: string }).code ?? '';
  if (!FINAL.has(code)) return undefined;
  if (code === '3D000') {
    return new StartupError(
      `database "${target.database}" does not exist on the PostgreSQL server at ${target.where}: ` +
        `create it (createdb ${target.database}), or fix the database name in DATABASE_URL`,
    );
  }
  return new StartupError(
    `the PostgreSQL server at ${target.where} refused user "${target.user}" (${reason(error)}): ` +
      `fix the user or password in DATABASE_URL`,
  );
}

/**
 * Waits until the server of `url` answers a query, retrying with exponential backoff for at
 * most `timeoutMs`, so a service started beside its database (in compose, say) waits for it.
 */
export async function waitForDatabase(
  url: string,
  { timeoutMs, connectTimeoutMs }: { timeoutMs: number; connectTimeoutMs: number },
  onRetry: (message: string) => void = () => undefined,
): Promise<void> {
  const target = describeTarget(url);
  const started = Date.now();
  for (
    let attempt = 1, delay = FIRST_DELAY_MS;
    ;
    attempt++, delay = Math.min(delay * 2, MAX_DELAY_MS)
  ) {
    let client: Client | undefined;
    try {
      // The driver reads the files DATABASE_URL names (sslrootcert, ...) here.
      client = new Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
      // A server that goes away mid-handshake emits 'error' besides rejecting connect().
      client.on('error', () => undefined);
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      const final = finalFailure(error, target, url);
      if (final) throw final;
      const elapsed = Date.now() - started;
      if (elapsed + delay > timeoutMs) {
        throw new StartupError(
          `cannot reach the PostgreSQL server at ${target.where} (${reason(error)}) after ` +
            `${attempt} attempt${attempt === 1 ? '' : 's'} in ${(elapsed / 1000).toFixed(1)} s: start it, ` +
            `or fix the host and port in DATABASE_URL (DB_STARTUP_TIMEOUT_MS sets how long to wait)`,
        );
      }
      onRetry(
        `waiting for the PostgreSQL server at ${target.where} (${reason(error)}); retrying in ${delay} ms`,
      );
      await sleep(delay);
    } finally {
      await client?.end().catch(() => undefined);
    }
  }
}
