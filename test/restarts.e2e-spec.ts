import { Client } from 'pg';
import { TEST_SERVER_ENV } from './setup/test-server';
import { ApiClient } from './support/api-client';
import { eventually } from './support/eventually';
import { recordFigure, SOAK_TEST_TIMEOUT_MS, soakScale } from './support/figures';
import { brokenInvariants } from './support/invariants';
import { freePort, ServiceProcess } from './support/service-process';
import { TcpProxy } from './support/tcp-proxy';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(SOAK_TEST_TIMEOUT_MS);

const WORKERS = 8;
const LOAD_MS = soakScale(1000, 15_000);
const OUTAGE_MS = soakScale(3000, 30_000);

interface LoadResult {
  /** Streams whose create was answered 201. */
  acknowledged: string[];
  /** Every HTTP status answered, by count. */
  statuses: Record<number, number>;
  /** Requests that got no answer at all: refused, reset, or cut by a kill. */
  unanswered: number;
  /** Requests sent but not yet answered now. */
  inFlight(): number;
  /** Settles when every loop has stopped. */
  done: Promise<void>;
}

/**
 * WORKERS loops creating streams until the service stops answering them; a deadline well past
 * the load's length stops them in any case.
 */
function startLoad(baseUrl: string, scope: string): LoadResult {
  const deadline = Date.now() + LOAD_MS + 30_000;
  let pending = 0;
  const load: Omit<LoadResult, 'done'> = {
    acknowledged: [],
    statuses: {},
    unanswered: 0,
    inFlight: () => pending,
  };
  const worker = async (w: number): Promise<void> => {
    for (let i = 0; Date.now() < deadline; i++) {
      const streamName = `w${w}-${i}`;
      pending++;
      try {
        const res = await fetch(`${baseUrl}/v1/scopes/${scope}/streams`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ streamName }),
        });
        await res.arrayBuffer();
        load.statuses[res.status] = (load.statuses[res.status] ?? 0) + 1;
        if (res.status === 201) load.acknowledged.push(streamName);
      } catch {
        load.unanswered++;
        return;
      } finally {
        pending--;
      }
    }
  };
  const done = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  return Object.assign(load, { done: done.then(() => undefined) });
}

/** Nothing acknowledged is lost, through SIGTERM, SIGKILL and a database outage. */
describe('Restarts and outages of the built service (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Client;
  const running: ServiceProcess[] = [];

  const start = async (env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> => {
    const service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      ...env,
    });
    running.push(service);
    await service.ready();
    return service;
  };

  const expectAllThere = async (streams: string[], scope: string): Promise<void> => {
    const after = new ApiClient((await start()).baseUrl);
    const missing: string[] = [];
    for (const name of streams) {
      if ((await after.call('GET', `/v1/scopes/${scope}/streams/${name}`)).status !== 200)
        missing.push(name);
    }
    expect(missing).toEqual([]);
    expect(
      await brokenInvariants(async (text) => (await sql.query<Record<string, unknown>>(text)).rows),
    ).toEqual([]);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    sql = new Client({ connectionString: database.url });
    await sql.connect();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.stop('SIGKILL')));
  });
  afterAll(async () => {
    await sql.end();
    await database.drop();
  });

  /**
   * Creates streams from WORKERS loops for LOAD_MS, sends `signal` and waits for the loops to
   * stop; every request that got an answer must have been a 201.
   */
  const loadThenSignal = async (
    service: ServiceProcess,
    scope: string,
    signal: NodeJS.Signals,
  ): Promise<LoadResult> => {
    const api = new ApiClient(service.baseUrl);
    expect((await api.call('POST', '/v1/scopes', { scopeName: scope })).status).toBe(201);
    const load = startLoad(service.baseUrl, scope);
    await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
    recordFigure(`requests in flight at ${signal}`, load.inFlight());
    service.signal(signal);
    await load.done;
    expect(Object.keys(load.statuses)).toEqual(['201']);
    expect(load.acknowledged.length).toBeGreaterThan(0);
    recordFigure(`creates acknowledged before ${signal} (0 lost)`, load.acknowledged.length);
    return load;
  };

  it('answers every request it accepted when stopped with SIGTERM under load', async () => {
    const service = await start({ SHUTDOWN_DELAY_MS: '300' });
    const load = await loadThenSignal(service, 'term', 'SIGTERM');
    expect(['SIGTERM', 0]).toContain(await service.exited());
    // The drain ended by itself: busy keep-alive connections were not left to the timeout.
    expect(service.output.join('')).not.toMatch(/requests still running at SHUTDOWN_TIMEOUT_MS/);
    await expectAllThere(load.acknowledged, 'term');
  });

  it('loses nothing it acknowledged when killed with SIGKILL', async () => {
    const service = await start();
    const load = await loadThenSignal(service, 'kill', 'SIGKILL');
    expect(await service.exited()).toBe('SIGKILL');
    await expectAllThere(load.acknowledged, 'kill');
  });

  it('fails fast with 503 during a database outage and recovers by itself', async () => {
    const server = new URL(process.env[TEST_SERVER_ENV]!);
    const proxy = new TcpProxy(server.hostname, Number(server.port || 5432));
    await proxy.start();
    try {
      const service = ServiceProcess.start({
        PORT: String(await freePort()),
        DATABASE_URL: proxy.route(database.url),
        DB_CONNECT_TIMEOUT_MS: '1000',
      });
      running.push(service);
      await service.ready();
      const api = new ApiClient(service.baseUrl);
      expect((await api.call('POST', '/v1/scopes', { scopeName: 'outage' })).status).toBe(201);
      const before = Array.from({ length: 20 }, (_, i) => `before-${i}`);
      for (const streamName of before) {
        expect((await api.call('POST', '/v1/scopes/outage/streams', { streamName })).status).toBe(
          201,
        );
      }

      await proxy.cut();
      const outageEnds = Date.now() + OUTAGE_MS;
      let failedFast = 0;
      while (Date.now() < outageEnds) {
        const started = Date.now();
        const res = await fetch(`${service.baseUrl}/v1/scopes/outage/streams/before-0`);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(Date.now() - started).toBeLessThan(5000);
        expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(503);
        expect((await fetch(`${service.baseUrl}/livez`)).status).toBe(200);
        failedFast++;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await proxy.restore();

      const readyz = async () => (await fetch(`${service.baseUrl}/readyz`)).status;
      expect(await eventually(readyz, 200, { attempts: 100 })).toBe(200);
      for (const streamName of before) {
        expect((await api.call('GET', `/v1/scopes/outage/streams/${streamName}`)).status).toBe(200);
      }
      expect(
        (await api.call('POST', '/v1/scopes/outage/streams', { streamName: 'after' })).status,
      ).toBe(201);
      recordFigure('database outage survived (ms)', OUTAGE_MS);
      recordFigure('requests answered 503 during the outage', failedFast);
    } finally {
      await proxy.cut();
    }
  });
});
