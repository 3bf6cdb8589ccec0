import { Client } from 'pg';
import { eventually } from './support/eventually';
import { createTestDatabase } from './support/test-database';
import { freePort, ServiceProcess } from './support/service-process';

const IN_FLIGHT = 20;
/** Long enough for the three checks made while draining, however loaded the machine. */
const DELAY_MS = 4000;

const json = (method: string, body: object): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * SIGTERM on the built service: it turns not-ready at once, keeps serving for
 * SHUTDOWN_DELAY_MS, lets every request in flight finish, then closes the pool and exits.
 */
describe('Graceful shutdown of the built service (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: ServiceProcess;
  let stuck: ServiceProcess | undefined;
  let locker: Client;
  /** Watches the locks from outside the locker's transaction (which sees a frozen snapshot). */
  let observer: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      DB_POOL_SIZE: String(IN_FLIGHT + 5),
      SHUTDOWN_DELAY_MS: String(DELAY_MS),
    });
    await service.ready();
    locker = new Client({ connectionString: database.url });
    observer = new Client({ connectionString: database.url });
    await Promise.all([locker.connect(), observer.connect()]);
  });
  afterAll(async () => {
    await Promise.all([locker.end(), observer.end()]);
    await service.stop('SIGKILL');
    await stuck?.stop('SIGKILL');
    await database.drop();
  });

  const waitingOnLocks = async (): Promise<number> => {
    const { rows } = await observer.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return rows[0].n;
  };

  it('finishes every request in flight at SIGTERM, after turning not-ready', async () => {
    const base = service.baseUrl;
    expect((await fetch(`${base}/v1/scopes`, json('POST', { scopeName: 'drain' }))).status).toBe(
      201,
    );
    const stream = `${base}/v1/scopes/drain/streams/s`;
    const created = await fetch(
      `${base}/v1/scopes/drain/streams`,
      json('POST', { streamName: 's' }),
    );
    expect(created.status).toBe(201);

    // Hold the stream's row: every update queues behind it, in flight inside the service.
    await locker.query('BEGIN');
    await locker.query(
      `SELECT 1 FROM streams WHERE scope_name = 'drain' AND name = 's' FOR UPDATE`,
    );
    const updates = Array.from({ length: IN_FLIGHT }, (_, i) =>
      fetch(
        stream,
        json('PUT', { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: i + 2 } }),
      ),
    );
    for (let attempt = 0; attempt < 100 && (await waitingOnLocks()) < IN_FLIGHT; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await waitingOnLocks()).toBe(IN_FLIGHT);

    service.signal('SIGTERM');
    // Once it says so, it is draining: from then on it answers not-ready for DELAY_MS.
    const saysDraining = () =>
      Promise.resolve(service.output.join('').includes('not ready any more'));
    expect(await eventually(saysDraining, true)).toBe(true);
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    expect((await fetch(`${base}/livez`)).status).toBe(200);
    const health = (await (await fetch(`${base}/v1/health`)).json()) as {
      details: Record<string, string>;
    };
    expect(health).toMatchObject({ status: 'DOWN', readiness: false, liveness: true });
    expect(health.details.state).toBe('draining');

    await locker.query('COMMIT');
    const answers = await Promise.all(updates);
    expect(answers.map((res) => res.status)).toEqual(Array(IN_FLIGHT).fill(200));

    expect(['SIGTERM', 0]).toContain(await service.exited());
    expect(service.output.join('')).toMatch(/not ready any more; draining/);
    await expect(fetch(`${base}/ping`)).rejects.toThrow();

    // Every acknowledged update is there: one epoch per rescale after epoch 0.
    const { rows } = await locker.query<{ epochs: number }>(
      `SELECT count(*)::int AS epochs FROM stream_epochs WHERE scope_name = 'drain' AND stream_name = 's'`,
    );
    expect(rows[0].epochs).toBe(IN_FLIGHT + 1);
  });

  it('cuts off requests still running SHUTDOWN_TIMEOUT_MS after the listener closed', async () => {
    stuck = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      SHUTDOWN_TIMEOUT_MS: '300',
      DB_STATEMENT_TIMEOUT_MS: '2000',
    });
    await stuck.ready();
    // A stream of its own to hold, whether or not the test before ran.
    const scopes = `${stuck.baseUrl}/v1/scopes`;
    expect((await fetch(scopes, json('POST', { scopeName: 'cutoff' }))).status).toBe(201);
    const created = await fetch(`${scopes}/cutoff/streams`, json('POST', { streamName: 's' }));
    expect(created.status).toBe(201);
    await locker.query('BEGIN');
    await locker.query(
      `SELECT 1 FROM streams WHERE scope_name = 'cutoff' AND name = 's' FOR UPDATE`,
    );
    try {
      const update = fetch(
        `${scopes}/cutoff/streams/s`,
        json('PUT', { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 } }),
      ).then(
        (res) => res.status,
        () => 'cut off',
      );
      expect(await eventually(waitingOnLocks, 1, { attempts: 100, intervalMs: 50 })).toBe(1);
      stuck.signal('SIGTERM');
      expect(await update).toBe('cut off');
      expect(['SIGTERM', 0]).toContain(await stuck.exited());
      expect(stuck.output.join('')).toMatch(/requests still running at SHUTDOWN_TIMEOUT_MS/);
    } finally {
      await locker.query('ROLLBACK');
    }
  });
});
