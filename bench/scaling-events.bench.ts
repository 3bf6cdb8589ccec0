/**
 * How the scaling-events query scales with history: a narrow and a wide window on a stream with
 * EPOCHS epochs (built through the API, one rescale per update), against the same narrow query on
 * a stream with a single epoch, measured in the same run.
 *
 *   npm run bench:scaling-events [-- --epochs 10000 --runs 200]
 *
 * Uses DATABASE_URL when set, else the service's embedded PostgreSQL in a temporary directory.
 * Right after the bulk build the planner may not have statistics yet; with DATABASE_URL the
 * narrow window is measured again after ANALYZE (what autovacuum does within a minute).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { format, time } from './support/timing';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

async function main(): Promise<void> {
  const epochs = arg('epochs', 10_000);
  const runs = arg('runs', 200);
  const dataDir = await mkdtemp(join(tmpdir(), 'tributary-bench-'));
  const env: NodeJS.ProcessEnv = {
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  const service = ServiceProcess.start(env);
  try {
    await service.ready();
    const api = (path: string, method = 'GET', body?: object) =>
      fetch(`${service.baseUrl}/v1${path}`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: body && JSON.stringify(body),
      }).then(async (res) => {
        if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
        return res.status === 204 ? undefined : await res.json();
      });

    const scope = `bench-${Date.now()}`;
    await api('/scopes', 'POST', { scopeName: scope });
    await api(`/scopes/${scope}/streams`, 'POST', { streamName: 'shallow' });
    await api(`/scopes/${scope}/streams`, 'POST', { streamName: 'deep' });
    const started = Date.now();
    for (let i = 1; i < epochs; i++) {
      const minSegments = (i % 2) + 1;
      await api(`/scopes/${scope}/streams/deep`, 'PUT', {
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
      });
    }
    console.log(
      `built ${epochs} epochs through the API in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const events = (stream: string, from: number, to: number) =>
      api(`/scopes/${scope}/streams/${stream}/scaling-events?from=${from}&to=${to}`) as Promise<{
        scalingEvents: { timestamp: number }[];
      }>;
    const all = (await events('deep', 0, Number.MAX_SAFE_INTEGER)).scalingEvents;
    if (all.length !== epochs) throw new Error(`expected ${epochs} epochs, found ${all.length}`);
    const middle = Math.floor(epochs / 2);
    const [from, to] = [all[middle].timestamp, all[middle + 2].timestamp];
    const shallowFrom = (await events('shallow', 0, Number.MAX_SAFE_INTEGER)).scalingEvents[0]
      .timestamp;

    const baseline = await time(() => events('shallow', shallowFrom, shallowFrom + 1), runs);
    const narrow = await time(() => events('deep', from, to), runs);
    const wide = await time(
      () => events('deep', 0, Number.MAX_SAFE_INTEGER),
      Math.max(5, runs / 20),
      3,
    );

    console.log(`narrow window, 1 epoch (baseline):   ${format(baseline)}`);
    console.log(
      `narrow window, ${epochs} epochs:      ${format(narrow)} (statistics as left by the build)`,
    );
    if (process.env.DATABASE_URL) {
      const client = new Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query('ANALYZE');
      await client.end();
      const analyzed = await time(() => events('deep', from, to), runs);
      console.log(`narrow window, ${epochs} epochs:      ${format(analyzed)} (after ANALYZE)`);
      console.log(
        `ratio: scaling-events-narrow-${epochs}-analyzed ${(analyzed.p50 / baseline.p50).toFixed(2)}`,
      );
    }
    console.log(`wide window (all), ${epochs} epochs:  ${format(wide)}`);
    console.log(`ratio: scaling-events-narrow-${epochs} ${(narrow.p50 / baseline.p50).toFixed(2)}`);
    console.log(`ratio: scaling-events-wide-${epochs} ${(wide.p50 / baseline.p50).toFixed(2)}`);
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
