import { migrations } from '../migrations';
import { eventually } from './support/eventually';
import { PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const CONTRIBUTORS = ['database', 'migrations', 'memory', 'disk', 'eventLoop'];
const STATUSES = ['UP', 'STARTING', 'NEW', 'UNKNOWN', 'DOWN', 'FAILED'];

/** A HealthResult's shape: every detail a string, every child a HealthResult named by its key. */
function expectHealthResult(node: Record<string, unknown>, name: string): void {
  expect(node).toEqual({
    name,
    status: expect.stringMatching(new RegExp(`^(${STATUSES.join('|')})$`)),
    readiness: expect.any(Boolean),
    liveness: expect.any(Boolean),
    details: expect.any(Object),
    children: expect.any(Object),
  });
  Object.values(node.details as object).forEach((value) => expect(typeof value).toBe('string'));
  Object.entries(node.children as Record<string, Record<string, unknown>>).forEach(([key, child]) =>
    expectHealthResult(child, key),
  );
}

/** docs/behaviour.md section 7 and the contract's Health part. */
describe('Health (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the ten /v1/health routes', () => {
    it('GET /v1/health: the root with one child per contributor, all UP', async () => {
      const res = await t.http.get('/v1/health').expect(200).expect('Content-Type', /json/);
      expectHealthResult(res.body, 'tributary');
      expect(Object.keys(res.body.children)).toEqual(CONTRIBUTORS);
      expect(res.body).toMatchObject({ status: 'UP', readiness: true, liveness: true });
      expect(res.body.details).toMatchObject({ state: 'serving' });
      expect(Object.keys(res.body.children.memory.children)).toEqual(['heap', 'rss']);
      expect(res.body.children.migrations.details).toMatchObject({
        applied: String(migrations.length),
        latest: migrations.at(-1)!.name,
      });
      expect(res.body.children.disk.details).toMatchObject({
        freeBytes: expect.stringMatching(/^\d+$/),
        minFreeBytes: String(100 * 1024 * 1024),
      });
      // The limit test-app.ts sets (the default is 1000).
      expect(res.body.children.eventLoop.details).toMatchObject({ limitMs: '60000' });
    });

    it('GET /v1/health/{id}: one contributor, and a path walks deeper', async () => {
      const database = await t.http.get('/v1/health/database').expect(200);
      expectHealthResult(database.body, 'database');
      expect(database.body.status).toBe('UP');

      for (const path of ['memory/heap', 'memory%2Fheap']) {
        const heap = await t.http.get(`/v1/health/${path}`).expect(200);
        expectHealthResult(heap.body, 'heap');
        expect(heap.body.details).toEqual({
          usedBytes: expect.stringMatching(/^\d+$/),
          limitBytes: String(65536 * 1024 * 1024),
        });
      }
    });

    it('GET /v1/health/details[/{id}]: the details map', async () => {
      const root = await t.http.get('/v1/health/details').expect(200);
      expect(root.body).toEqual({ state: 'serving', startedAt: expect.any(String) });
      const heap = await t.http.get('/v1/health/details/memory/heap').expect(200);
      expect(Object.keys(heap.body)).toEqual(['usedBytes', 'limitBytes']);
      await t.http.get('/v1/health/details/disk').expect(200, /freeBytes/);
    });

    it('GET /v1/health/status[/{id}]: a JSON string', async () => {
      for (const path of ['status', 'status/database', 'status/memory', 'status/memory/rss']) {
        const res = await t.http.get(`/v1/health/${path}`).expect(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.text).toBe('"UP"');
      }
    });

    it('GET /v1/health/liveness and /readiness[/{id}]: JSON booleans', async () => {
      for (const path of [
        'liveness',
        'liveness/eventLoop',
        'liveness/memory/heap',
        'readiness',
        'readiness/migrations',
        'readiness/memory/rss',
      ]) {
        const res = await t.http.get(`/v1/health/${path}`).expect(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.text).toBe('true');
      }
    });

    it('answers 404 for unknown ids on every {id} route, with a problem document if asked', async () => {
      const unknown = [
        'nope',
        'memory/nope',
        'database/deeper',
        '__proto__',
        'constructor',
        'toString',
      ];
      for (const route of ['', 'details/', 'liveness/', 'readiness/', 'status/']) {
        for (const id of unknown) {
          const res = await t.http.get(`/v1/health/${route}${id}`);
          expect({ path: `${route}${id}`, status: res.status, text: res.text }).toEqual({
            path: `${route}${id}`,
            status: 404,
            text: '',
          });
        }
      }
      const problem = await t.http.get('/v1/health/status/nope').set(PROBLEM_HEADERS).expect(404);
      expect(problem.body).toMatchObject({ status: 404, code: 'HEALTH_CONTRIBUTOR_NOT_FOUND' });
    });

    it('lets the literal routes win over {id}', async () => {
      // "details" is a route, not a contributor: it answers the root's details map.
      expect((await t.http.get('/v1/health/details').expect(200)).body).not.toHaveProperty('name');
      expect((await t.http.get('/v1/health/status').expect(200)).text).toBe('"UP"');
    });
  });

  describe('probe routes outside /v1', () => {
    it('GET /ping answers 200', async () => {
      await t.http.get('/ping').expect(200);
    });

    it('GET /livez and /readyz answer 200 when healthy', async () => {
      expect((await t.http.get('/livez').expect(200)).body).toEqual({ liveness: true });
      expect((await t.http.get('/readyz').expect(200)).body).toEqual({
        readiness: true,
        status: 'UP',
      });
    });
  });
});

describe('Health with a vital part over its limit (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ HEALTH_HEAP_LIMIT_MB: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is DOWN, not ready and not alive; /livez and /readyz answer 503', async () => {
    const root = await t.http.get('/v1/health').expect(200);
    expect(root.body).toMatchObject({ status: 'DOWN', readiness: false, liveness: false });
    expect(root.body.children.memory).toMatchObject({ status: 'DOWN', liveness: false });
    expect(root.body.children.memory.children.heap.details.message).toMatch(/threshold/);
    expect(root.body.children.memory.children.rss.status).toBe('UP');
    expect(root.body.children.database).toMatchObject({ status: 'UP', liveness: true });
    expect((await t.http.get('/v1/health/liveness').expect(200)).text).toBe('false');
    expect((await t.http.get('/v1/health/liveness/database').expect(200)).text).toBe('true');
    expect((await t.http.get('/livez').expect(503)).body).toEqual({ liveness: false });
    await t.http.get('/readyz').expect(503);
  });
});

describe('Health with a dependency over its limit (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // More free space than any disk has: the disk contributor is DOWN.
    t = await startTestApp({ HEALTH_DISK_MIN_FREE_MB: String(2 ** 40) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is DOWN and not ready, yet alive', async () => {
    const root = await t.http.get('/v1/health').expect(200);
    expect(root.body).toMatchObject({ status: 'DOWN', readiness: false, liveness: true });
    expect(root.body.children.disk).toMatchObject({ status: 'DOWN', liveness: true });
    expect(root.body.children.disk.details.message).toMatch(/below the minimum/);
    expect((await t.http.get('/v1/health/status/disk').expect(200)).text).toBe('"DOWN"');
    expect((await t.http.get('/v1/health/readiness').expect(200)).text).toBe('false');
    await t.http.get('/livez').expect(200);
    await t.http.get('/readyz').expect(503);
  });
});

describe('Health of a blocked event loop (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ HEALTH_EVENT_LOOP_LAG_LIMIT_MS: '200' });
  });
  afterAll(async () => {
    await t.close();
  });

  const eventLoopStatus = async (): Promise<string> =>
    (await t.http.get('/v1/health/status/eventLoop').expect(200)).body as string;

  const waitFor = (status: string): Promise<string> =>
    eventually(eventLoopStatus, status, { attempts: 40 });

  it('turns not alive after the loop was blocked past the limit, and recovers', async () => {
    expect(await waitFor('UP')).toBe('UP');
    // Block the event loop on purpose, as a runaway computation would, in every window until
    // the checks are done: the process stays not alive however slowly they run.
    const block = () => {
      const until = Date.now() + 300;
      while (Date.now() < until) {
        // busy
      }
    };
    const blocker = setInterval(block, 200);
    try {
      expect(await waitFor('DOWN')).toBe('DOWN');
      expect((await t.http.get('/v1/health/liveness').expect(200)).text).toBe('false');
      await t.http.get('/livez').expect(503);
    } finally {
      clearInterval(blocker);
    }
    expect(await waitFor('UP')).toBe('UP');
    await t.http.get('/livez').expect(200);
  });
});
