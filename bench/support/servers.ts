import { freePort, ServiceProcess } from '../../test/support/service-process';
import { BenchDatabase } from './database';

/**
 * Every measured server's young generation, fixed at one size. Left to V8, it grows with what
 * each process happened to allocate so far, and a small GET's CPU followed it: the same build
 * measured 331 and 428 µs per request in two runs of one day, enough to hide or invent a 10%
 * difference between two builds. Fixed and equal, the two builds pay for their own garbage alone.
 */
export const YOUNG_GENERATION = ['--min-semi-space-size=16', '--max-semi-space-size=16'];

/**
 * The settings a measured service runs with, as in production: a JSON line per request (probes
 * aside), written to a stdout the bench throws away (`stdoutFile: '/dev/null'`).
 */
export const AS_IN_PRODUCTION = {
  LOG_LEVEL: 'log',
  LOG_FORMAT: 'json',
  NODE_ENV: 'production',
  // The floors set no statement timeout: a 30 MB list on a busy machine may take longer
  // than the service's default 5 s, and a refused answer measures nothing.
  DB_STATEMENT_TIMEOUT_MS: '60000',
};

/**
 * Runs `work` with one built service on a database of its own (`BENCH_POSTGRES_URL`, default
 * the local server's `postgres`), as the benches measure it; then stops it and drops the
 * database, whatever `work` did.
 */
export async function withMeasuredService<T>(
  work: (service: ServiceProcess) => Promise<T>,
): Promise<T> {
  const database = await BenchDatabase.create(
    process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  const service = ServiceProcess.start(
    { PORT: String(await freePort()), DATABASE_URL: database.url, ...AS_IN_PRODUCTION },
    { execArgv: YOUNG_GENERATION, stdoutFile: '/dev/null' },
  );
  try {
    await service.ready();
    return await work(service);
  } finally {
    await service.stop();
    await database.drop();
  }
}

/** One request of a bench's setup (a JSON body, as text or as an object); not 2xx stops it. */
export async function send(
  base: string,
  method: string,
  path: string,
  body: string | object,
): Promise<void> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}
