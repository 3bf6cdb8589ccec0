import { Client } from 'pg';
import { migrations } from '../migrations';
import { ApiClient } from './support/api-client';
import { freePort, ServiceProcess } from './support/service-process';
import { SseClient } from './support/sse-client';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(180_000);

/**
 * `npm run test:pooler` only: the built service through PgBouncer in transaction mode, with no
 * startup parameter ignored (test/setup/pooler-global-setup.ts puts it in front of every
 * database the tests use).
 */
describe('Through a transaction pooler (PgBouncer)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Client;
  const services: ServiceProcess[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
    sql = new Client({ connectionString: database.url });
    await sql.connect();
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
    await sql.end();
    await database.drop();
  });

  it('refuses session settings sent when connecting, as Debian installs it', async () => {
    const client = new Client({ connectionString: database.url, statement_timeout: 1000 });
    client.on('error', () => undefined);
    await expect(client.connect()).rejects.toThrow(
      'unsupported startup parameter: statement_timeout',
    );
  });

  it('starts the built service, which says it goes through a pooler, and serves the contract', async () => {
    const service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      LOG_FORMAT: 'json',
    });
    services.push(service);
    await service.ready();
    const messages = service.lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages.filter((message) => /pooler/.test(message))).toEqual([
      'DATABASE_URL leads through a connection pooler: every transaction sets its own time limits',
    ]);

    const api = new ApiClient(service.baseUrl);
    const stream = '/v1/scopes/pooled/streams/orders';
    const calls: Array<[string, string, unknown, number]> = [
      ['POST', '/v1/scopes', { scopeName: 'pooled' }, 201],
      ['POST', '/v1/scopes/pooled/streams', { streamName: 'orders', streamTags: ['t'] }, 201],
      ['GET', stream, undefined, 200],
      ['PUT', stream, { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 3 } }, 200],
      ['GET', '/v1/scopes/pooled/streams', undefined, 200],
      ['PUT', `${stream}/state`, { streamState: 'SEALED' }, 200],
      ['DELETE', stream, undefined, 204],
      ['DELETE', '/v1/scopes/pooled', undefined, 204],
    ];
    const answered: Array<[string, number]> = [];
    for (const [method, path, body] of calls) {
      answered.push([`${method} ${path}`, (await api.call(method, path, body)).status]);
    }
    expect(answered).toEqual(
      calls.map(([method, path, , status]) => [`${method} ${path}`, status]),
    );
    expect(await api.call('GET', '/v1/scopes')).toEqual({ status: 200, body: { scopes: [] } });
  });

  it('lets instances started together migrate once, and leaves no lock behind', async () => {
    services.push(...(await ServiceProcess.instances(database.url, 3)));
    const applied = await sql.query<{ name: string; times: number }>(
      'SELECT name, count(*)::int AS times FROM tributary_migrations GROUP BY name ORDER BY name',
    );
    expect(applied.rows).toEqual(
      migrations
        .map(({ name }) => ({ name, times: 1 }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
    const locks = await sql.query<{ held: number }>(
      `SELECT count(*)::int AS held FROM pg_locks
        WHERE locktype = 'advisory'
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(locks.rows).toEqual([{ held: 0 }]);
  });

  it('follows the change feed by polling, as it cannot LISTEN: to a stream and a long poll, ids gap-free', async () => {
    const [watched, written] = await Promise.all(
      [0, 1].map(async () =>
        ServiceProcess.start({
          PORT: String(await freePort()),
          DATABASE_URL: database.url,
          EVENTS_POLL_MS: '100',
        }),
      ),
    );
    services.push(watched, written);
    await Promise.all([watched.ready(), written.ready()]);
    const feed = new ApiClient(watched.baseUrl);
    const writer = new ApiClient(written.baseUrl);
    const start = (await feed.call('GET', '/v1/events')).body as { position: string };

    const stream = await SseClient.open(`${watched.baseUrl}/v1/events?since=${start.position}`);
    expect(stream.status).toBe(200);
    // The long poll waits on the watched instance for the first change the other one makes.
    const longPoll = feed.call('GET', `/v1/events?since=${start.position}&wait=60&limit=1000`);
    const changes = 12;
    await writer.call('POST', '/v1/scopes', { scopeName: 'polled' });
    for (let i = 1; i < changes; i++) {
      await writer.call('POST', '/v1/scopes/polled/streams', { streamName: `s${i}` });
    }
    const polled = (await longPoll) as { status: number; body: { events: Array<{ id: string }> } };
    expect(polled.status).toBe(200);
    expect(polled.body.events.length).toBeGreaterThan(0);
    await stream.until((client) => client.events.length >= changes, 30_000);
    stream.close();

    const first = BigInt(start.position);
    const expected = Array.from({ length: changes }, (_, i) => String(first + BigInt(i + 1)));
    expect(stream.events.map((event) => event.id)).toEqual(expected);
    expect(stream.events.map((event) => event.event)).toEqual([
      'createScope',
      ...Array.from({ length: changes - 1 }, () => 'createStream'),
    ]);
    expect(polled.body.events.map((event) => event.id)).toEqual(
      expected.slice(0, polled.body.events.length),
    );
    // Through the pooler no session listens: every server backend of the database says so.
    const listening = await sql.query<{ listeners: number }>(
      `SELECT count(*)::int AS listeners FROM pg_stat_activity
        WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
    );
    expect(listening.rows).toEqual([{ listeners: 0 }]);
  });
});
