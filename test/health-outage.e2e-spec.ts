import { METRICS_PATH } from '../src/metrics/metrics.controller';
import { eventually } from './support/eventually';
import { parseSamples, valueOf } from './support/prometheus';
import { ProxiedApp, startBehindProxy } from './support/proxied-app';
import { TestApp } from './support/test-app';

const PING = 'SELECT 1';
const MIGRATIONS_QUERY = 'FROM "tributary_migrations"';

/** What the readiness gauges say at a scrape. */
const readinessGauges = async (t: TestApp) => {
  const samples = parseSamples((await t.http.get(METRICS_PATH).expect(200)).text);
  return {
    ready: valueOf(samples, 'tributary_ready'),
    databaseUp: valueOf(samples, 'tributary_database_up'),
  };
};

/** A storm of probes, all at once, on every route that needs the database's health. */
const probeStorm = (t: TestApp, size: number) =>
  Promise.all(
    Array.from({ length: size }, (_, i) =>
      t.http.get(['/readyz', '/v1/health', '/v1/health/readiness', '/v1/health/status'][i % 4]),
    ),
  );

/** docs/behaviour.md section 7: a database outage makes the service DOWN and not ready, never dead. */
describe('Health during a database outage (e2e)', () => {
  let app: ProxiedApp;

  beforeAll(async () => {
    app = await startBehindProxy({ HEALTH_CACHE_MS: '0', HEALTH_TIMEOUT_MS: '2000' });
  });
  afterAll(() => app.close());

  it('is DOWN and not ready but alive while the database is unreachable, then recovers', async () => {
    const { t, proxy } = app;
    await t.http.get('/readyz').expect(200);
    await proxy.cut();

    const root = await t.http.get('/v1/health').expect(200);
    expect(root.body).toMatchObject({ status: 'DOWN', readiness: false, liveness: true });
    expect(root.body.children.database).toMatchObject({ status: 'DOWN', liveness: true });
    expect(root.body.children.database.details.message).toMatch(
      /^(database unreachable|timeout of 2000ms exceeded)$/,
    );
    expect(root.body.children.migrations.status).toBe('DOWN');
    expect(root.body.children.memory.status).toBe('UP');
    expect(JSON.stringify(root.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|SELECT/);

    expect((await t.http.get('/v1/health/status').expect(200)).text).toBe('"DOWN"');
    expect((await t.http.get('/v1/health/readiness').expect(200)).text).toBe('false');
    expect((await t.http.get('/v1/health/liveness').expect(200)).text).toBe('true');
    expect((await t.http.get('/v1/health/liveness/database').expect(200)).text).toBe('true');
    expect((await t.http.get('/readyz').expect(503)).body).toEqual({
      readiness: false,
      status: 'DOWN',
    });
    await t.http.get('/livez').expect(200);
    await t.http.get('/ping').expect(200);
    expect(await readinessGauges(t)).toEqual({ ready: 0, databaseUp: 0 });

    await proxy.restore();
    expect(await eventually(async () => (await t.http.get('/readyz')).status, 200)).toBe(200);
    expect((await t.http.get('/v1/health').expect(200)).body.status).toBe('UP');
    expect(await readinessGauges(t)).toEqual({ ready: 1, databaseUp: 1 });
  });
});

describe('Health results are shared for a moment (e2e)', () => {
  it('pings the database once per moment however many probes arrive', async () => {
    // A moment far longer than the test, and a generous timeout: this counts, it does not time.
    const app = await startBehindProxy({ HEALTH_CACHE_MS: '60000', HEALTH_TIMEOUT_MS: '10000' });
    const { t, proxy } = app;
    try {
      const pings = proxy.watch(PING);
      const migrationChecks = proxy.watch(MIGRATIONS_QUERY);
      const answers = await probeStorm(t, 200);
      expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
      expect(pings.count).toBe(1);
      expect(migrationChecks.count).toBe(1);

      // Later probes in the moment take the same rendered tree: no check runs again.
      const root = await t.http.get('/v1/health').expect(200);
      expect(root.body).toEqual(answers[1].body); // the storm's second probe: /v1/health
      await t.http.get('/v1/health/database').expect(200);
      // Scrapes read the same tree: its readiness gauges run no check of their own.
      expect(await readinessGauges(t)).toEqual({ ready: 1, databaseUp: 1 });
      expect(pings.count).toBe(1);
      expect(migrationChecks.count).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('pings on every probe when the moment is zero (what the cache saves)', async () => {
    const app = await startBehindProxy({ HEALTH_CACHE_MS: '0', HEALTH_TIMEOUT_MS: '10000' });
    const { t, proxy } = app;
    try {
      const pings = proxy.watch(PING);
      await probeStorm(t, 40);
      expect(pings.count).toBe(40);
    } finally {
      await app.close();
    }
  });
});
