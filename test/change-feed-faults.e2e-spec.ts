import { connect, Socket } from 'node:net';
import { Client } from 'pg';
import { AppConfig } from '../src/config/app-config';
import { EventsService } from '../src/events/events.service';
import { FeedTail } from '../src/events/feed-tail.service';
import { TEST_SERVER_ENV } from './setup/test-server';
import { eventually } from './support/eventually';
import { ProxiedApp, startBehindProxy } from './support/proxied-app';
import { freePort, ServiceProcess } from './support/service-process';
import { SseClient } from './support/sse-client';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';
import { readRaw } from './support/unread-answer';

jest.setTimeout(180_000);

/** The base URL of an app listening on a free port of 127.0.0.1. */
async function listen(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
}

/** The ids one after the other from `first` + 1: the feed's promise of no gap. */
const following = (first: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => String(BigInt(first) + BigInt(i + 1)));

/**
 * docs/extensions.md section 8, its faults: a database outage pauses the streams (comments
 * keep flowing) and they resume without loss, the listening connection coming back by itself;
 * a client that stops reading is cut off at the bound docs/limits.md states ("A slow reader"), others unaffected.
 */
describe('The change feed through a database outage (e2e)', () => {
  let proxied: ProxiedApp;
  let base: string;
  let direct: Client;
  let writer: ServiceProcess;
  /** The session the writing instance listens on (not the proxied app's). */
  let writersListener: number;

  /** Sessions of the database that LISTEN, other than the writing instance's. */
  const listening = async (): Promise<number[]> =>
    (
      await direct.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND state = 'idle'`,
      )
    ).rows
      .map((row) => row.pid)
      .filter((pid) => pid !== writersListener);
  const listeners = async (): Promise<number> => (await listening()).length;

  beforeAll(async () => {
    proxied = await startBehindProxy({ EVENTS_HEARTBEAT_MS: '100', EVENTS_POLL_MS: '100' });
    base = await listen(proxied.t);
    // The same database, reached without the proxy: what the outage does not cut.
    const url = new URL(proxied.t.app.get(AppConfig).DATABASE_URL!);
    const server = new URL(process.env[TEST_SERVER_ENV]!);
    url.host = server.host;
    direct = new Client({ connectionString: url.toString() });
    await direct.connect();
    const before = await listening();
    expect(before).toHaveLength(1);
    writer = ServiceProcess.start({ PORT: String(await freePort()), DATABASE_URL: url.toString() });
    await writer.ready();
    let others: number[] = [];
    for (let attempt = 0; attempt < 100 && others.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      others = (await listening()).filter((pid) => !before.includes(pid));
    }
    expect(others).toHaveLength(1);
    writersListener = others[0];
  });
  afterAll(async () => {
    await writer?.stop();
    await direct?.end();
    await proxied?.close();
  });

  const change = async (scopeName: string): Promise<void> => {
    const res = await fetch(`${writer.baseUrl}/v1/scopes`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scopeName }),
    });
    expect([scopeName, res.status]).toEqual([scopeName, 201]);
  };

  it('keeps a stream open with comments while the database is away, and resumes it without loss', async () => {
    const { t, proxy } = proxied;
    const tail = t.app.get(FeedTail);
    expect(await eventually(listeners, 1)).toBe(1);
    // The database shows the LISTEN as it runs it; the tail knows once its answer is read.
    expect(await eventually(() => Promise.resolve(tail.isListening), true)).toBe(true);
    const start = ((await t.http.get('/v1/events').expect(200)).body as { position: string })
      .position;
    const stream = await SseClient.open(`${base}/v1/events`);
    expect(stream.status).toBe(200);
    await change('before-outage');
    await stream.until((c) => c.events.length === 1);

    await proxy.cut();
    // The listener's session ends with its connection; the instance polls.
    expect(await eventually(listeners, 0)).toBe(0);
    expect(await eventually(() => Promise.resolve(tail.isListening), false)).toBe(false);
    await change('during-outage-1');
    const comments = stream.comments.length;
    // Comments keep flowing to the client; the change made meanwhile cannot reach it yet.
    await stream.until((c) => c.comments.length >= comments + 5);
    await change('during-outage-2');
    await stream.until((c) => c.comments.length >= comments + 10);
    expect([stream.ended, stream.events.length]).toEqual([undefined, 1]);
    await t.http.get('/v1/events').expect(503);

    await proxy.restore();
    await change('after-outage');
    await stream.until((c) => c.events.length === 4);
    // The listener is back by itself, and it, not polling, wakes the instance again.
    expect(await eventually(listeners, 1, { attempts: 300 })).toBe(1);
    expect(await eventually(() => Promise.resolve(tail.isListening), true)).toBe(true);
    await change('after-listening');
    await stream.until((c) => c.events.length === 5);
    stream.close();
    expect(stream.events.map((event) => event.id)).toEqual(following(start, 5));
    expect(stream.data.map((event) => event.scopeName)).toEqual([
      'before-outage',
      'during-outage-1',
      'during-outage-2',
      'after-outage',
      'after-listening',
    ]);
    expect(stream.ended).toBeUndefined();
  });
});

describe('The change feed and a client that stops reading (e2e)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ EVENTS_HEARTBEAT_MS: '100', EVENTS_SLOW_CLIENT_MS: '1000' });
    base = await listen(t);
  });
  afterAll(() => t.close());

  /** A stream whose client reads nothing at all, not even the status line. */
  async function unreadStream(port: number): Promise<Socket> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((connected, failed) => {
      socket.once('connect', connected);
      socket.once('error', failed);
    });
    socket.pause();
    socket.write(
      'GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n' +
        'Connection: close\r\n\r\n',
    );
    return socket;
  }

  it('cuts off a client that takes nothing while megabytes of events wait, and serves the others', async () => {
    const streams = t.app.get(EventsService);
    // 128 tags of 256 characters: each event of the stream carries some 33 kB of object.
    const tags = (n: number) =>
      Array.from({ length: 128 }, (_, i) => `${String(i).padStart(3, '0')}-${n}-`.padEnd(256, 'x'));
    await t.http.post('/v1/scopes').send({ scopeName: 'wide' }).expect(201);
    await t.http
      .post('/v1/scopes/wide/streams')
      .send({ streamName: 'tagged', streamTags: tags(0) })
      .expect(201);
    const start = ((await t.http.get('/v1/events').expect(200)).body as { position: string })
      .position;
    const port = Number(new URL(base).port);
    const unread = await unreadStream(port);
    const reader = await SseClient.open(`${base}/v1/events`);
    expect(await eventually(() => Promise.resolve(streams.openStreams), 2)).toBe(2);

    // Some 13 MB: more than the kernel's buffers of a connection nobody reads hold.
    const changes = 400;
    for (let n = 1; n <= changes; n++) {
      await t.http
        .put('/v1/scopes/wide/streams/tagged')
        .send({
          scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
          streamTags: tags(n),
        })
        .expect(200);
    }
    await reader.until((c) => c.events.length === changes, 120_000);
    expect(await eventually(() => Promise.resolve(streams.openStreams), 1, { attempts: 300 })).toBe(
      1,
    );

    const { text, whole } = await readRaw(unread);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toMatch(/: connected\n\n/);
    // Cut off mid-answer: no last chunk.
    expect(whole).toBe(false);
    expect(reader.ended).toBeUndefined();
    expect(reader.events.map((event) => event.id)).toEqual(following(start, changes));
    reader.close();
  });
});

describe('The change feed when an instance is stopped by SIGTERM (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let services: ServiceProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    services = await ServiceProcess.instances(database.url, 2);
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await database.drop();
  });

  it('ends its streams cleanly, and a client resumes on another instance with Last-Event-ID', async () => {
    const [stopped, other] = services;
    const create = async (service: ServiceProcess, scopeName: string) => {
      const res = await fetch(`${service.baseUrl}/v1/scopes`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ scopeName }),
      });
      expect([scopeName, res.status]).toEqual([scopeName, 201]);
    };
    const start = (
      (await (await fetch(`${other.baseUrl}/v1/events`)).json()) as { position: string }
    ).position;
    const stream = await SseClient.open(`${stopped.baseUrl}/v1/events?since=${start}`);
    expect(stream.status).toBe(200);
    await create(other, 'seen-first');
    await stream.until((c) => c.events.length === 1);

    stopped.signal('SIGTERM');
    await stream.until((c) => c.ended !== undefined);
    // A clean end of the answer (its last chunk), not a reset connection.
    expect(stream.ended).toBe('end');
    expect(['SIGTERM', 0]).toContain(await stopped.exited());
    await create(other, 'after-stop-1');
    await create(other, 'after-stop-2');

    const last = stream.events[stream.events.length - 1].id!;
    const resumed = await SseClient.open(`${other.baseUrl}/v1/events`, { 'Last-Event-ID': last });
    expect(resumed.status).toBe(200);
    await resumed.until((c) => c.events.length === 2);
    resumed.close();
    expect([...stream.events, ...resumed.events].map((event) => event.id)).toEqual(
      following(start, 3),
    );
    expect(resumed.data.map((event) => event.scopeName)).toEqual(['after-stop-1', 'after-stop-2']);
  });
});
