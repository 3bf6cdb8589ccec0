import { eventually } from './support/eventually';
import { PROBLEM_HEADERS } from './support/factories';
import { ProxiedApp, startBehindProxy } from './support/proxied-app';

/** docs/behaviour.md section 2: an unreachable database is a fast 503 with Retry-After, not a 500. */
describe('Database outage (e2e)', () => {
  let app: ProxiedApp;

  beforeAll(async () => {
    app = await startBehindProxy();
  });
  afterAll(() => app.close());

  it('answers 503 with Retry-After while the database is unreachable, then recovers', async () => {
    const { t, proxy } = app;
    await t.http.post('/v1/scopes').send({ scopeName: 'before' }).expect(201);

    await proxy.cut();
    for (const call of [
      () => t.http.get('/v1/scopes'),
      () => t.http.get('/v1/scopes/before'),
      () => t.http.post('/v1/scopes').send({ scopeName: 'during' }),
      () => t.http.post('/v1/scopes/before/streams').send({ streamName: 's' }),
    ]) {
      const started = Date.now();
      const res = await call().set(PROBLEM_HEADERS);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|SELECT|INSERT/);
      expect(Date.now() - started).toBeLessThan(5000);
    }

    await proxy.restore();
    expect(await eventually(async () => (await t.http.get('/v1/scopes')).status, 200)).toBe(200);
    await t.http.get('/v1/scopes/before').expect(200);
    await t.http.get('/v1/scopes/during').expect(404);
  });
});

describe('A database that stops answering (e2e)', () => {
  let app: ProxiedApp;

  beforeAll(async () => {
    app = await startBehindProxy({
      DB_STATEMENT_TIMEOUT_MS: '500',
      DB_CONNECT_TIMEOUT_MS: '500',
      HEALTH_CACHE_MS: '0',
    });
  });
  afterAll(() => app.close());

  it('answers 503 within its timeouts instead of hanging, then recovers', async () => {
    const { t, proxy } = app;
    await t.http.post('/v1/scopes').send({ scopeName: 'kept' }).expect(201);

    proxy.freeze();
    const calls = [
      () => t.http.get('/v1/scopes/kept'),
      () => t.http.post('/v1/scopes').send({ scopeName: 'lost' }),
      () => t.http.get('/v1/scopes'),
    ];
    // A hang would outlive the bound (statement + connect timeouts are 0.5 s each).
    const answers = await Promise.all(
      calls.map((call) => call().set(PROBLEM_HEADERS).timeout(10_000)),
    );
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    }
    await t.http.get('/readyz').expect(503);
    await t.http.get('/livez').expect(200);

    await proxy.restore();
    expect(await eventually(async () => (await t.http.get('/v1/scopes/kept')).status, 200)).toBe(
      200,
    );
    await t.http.get('/v1/scopes/lost').expect(404);
  });
});
