import { eventually } from './support/eventually';
import { createScope, PROBLEM_HEADERS, uniqueName } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import {
  insertStreams as insertRows,
  listeningPort,
  openSnapshots as snapshotsOf,
  openUnread,
  readToEnd,
} from './support/unread-answer';

/**
 * Whole lists (the streams of a scope, a stream's scaling events) are sent as they are read, a
 * batch of LIST_BATCH_SIZE rows at a time, in one snapshot: the same bytes as a page holding
 * all of them, and one connection held only while the answer is being sent.
 */
describe('Whole lists streamed in batches (e2e)', () => {
  let t: TestApp;
  let scope: string;
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

  beforeAll(async () => {
    t = await startTestApp({ LIST_BATCH_SIZE: '2', DB_POOL_SIZE: '4' });
    scope = await createScope(t.http);
    for (const [i, streamName] of names.entries()) {
      await t.http
        .post(`/v1/scopes/${scope}/streams`)
        .send({ streamName, streamTags: i % 2 === 0 ? ['even'] : [] })
        .expect(201);
    }
    // Seven epochs for `a`, so its history spans four batches.
    for (const minSegments of [2, 3, 1, 4, 2, 1]) {
      await t.http
        .put(`/v1/scopes/${scope}/streams/a`)
        .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments } })
        .expect(200);
    }
  });
  afterAll(() => t.close());

  const streams = `/v1/scopes/${'SCOPE'}/streams`;
  const path = (template: string) => template.replace('SCOPE', scope);

  /** The whole list, streamed, and the same list as one page read at once. */
  async function bothWays(url: string) {
    const whole = await t.http.get(url).expect(200);
    const page = await t.http.get(`${url}${url.includes('?') ? '&' : '?'}limit=1000`).expect(200);
    return { whole, page };
  }

  it.each([
    ['user streams', ''],
    ['by tag', '?filter_type=tag&filter_value=even'],
    ['internal streams', '?filter_type=showInternalStreams'],
  ])('lists %s over several batches as the bytes of one page', async (_, query) => {
    const { whole, page } = await bothWays(`${path(streams)}${query}`);
    expect(whole.text).toBe(page.text);
    expect(whole.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((whole.body as { streams: unknown[] }).streams.length).toBeGreaterThan(2);
    expect(whole.headers.link).toBeUndefined();
  });

  it('sends the scaling history over several batches as the bytes of one page', async () => {
    const url = `${path(streams)}/a/scaling-events?from=0&to=${Number.MAX_SAFE_INTEGER}`;
    const { whole, page } = await bothWays(url);
    expect(whole.text).toBe(page.text);
    const records = (whole.body as { scalingEvents: { splits: number; merges: number }[] })
      .scalingEvents;
    expect(records).toHaveLength(7);
    // Splits and merges count against the record before, across batch boundaries too.
    expect(Math.max(...records.map((r) => r.splits))).toBeGreaterThan(0);
    expect(Math.max(...records.map((r) => r.merges))).toBeGreaterThan(0);
  });

  it('streams a list longer than a batch, and sends one that fits in a batch with its length', async () => {
    const longer = await t.http.get(path(streams)).expect(200);
    expect(longer.headers['transfer-encoding']).toBe('chunked');
    expect(longer.headers['content-length']).toBeUndefined();
    const two = await createScope(t.http);
    for (const streamName of ['x', 'y']) {
      await t.http.post(`/v1/scopes/${two}/streams`).send({ streamName }).expect(201);
    }
    const fits = await t.http.get(`/v1/scopes/${two}/streams`).expect(200);
    expect(fits.headers['transfer-encoding']).toBeUndefined();
    expect(fits.headers['content-length']).toBe(String(Buffer.byteLength(fits.text)));
    expect(
      (fits.body as { streams: { streamName: string }[] }).streams.map((s) => s.streamName),
    ).toEqual(['x', 'y']);
  });

  it('sends an empty list and an empty window whole', async () => {
    const empty = await createScope(t.http);
    const res = await t.http.get(`/v1/scopes/${empty}/streams`).expect(200);
    expect(res.text).toBe('{"streams":[]}');
    const window = await t.http.get(`${path(streams)}/b/scaling-events?from=0&to=1`).expect(200);
    expect(window.text).toBe('{"scalingEvents":[]}');
  });

  it('answers 404 with a problem, not a list, for a missing scope or stream', async () => {
    const noScope = await t.http
      .get(`/v1/scopes/${uniqueName('gone')}/streams`)
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect(noScope.body).toMatchObject({ code: 'SCOPE_NOT_FOUND' });
    const noStream = await t.http
      .get(`${path(streams)}/nope/scaling-events?from=0&to=1`)
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect(noStream.body).toMatchObject({ code: 'STREAM_NOT_FOUND' });
  });

  describe('a list larger than the socket buffers', () => {
    let big: string;
    const COUNT = 30_000;
    // Larger than what the kernel buffers for a client that does not read (up to 32 MB for
    // its receive buffer and 4 MB for the service's send buffer on loopback here), so that the
    // service is still answering, its snapshot open, while the client reads nothing.
    let huge: string;
    const HUGE = 250_000;
    let port: number;
    let t: TestApp;

    beforeAll(async () => {
      // Batches of the default size: the answer is megabytes.
      t = await startTestApp({ DB_POOL_SIZE: '4', DB_STATEMENT_TIMEOUT_MS: '60000' });
      big = await createScope(t.http, 'big');
      await insertStreams(big, COUNT);
      huge = await createScope(t.http, 'huge');
      await insertStreams(huge, HUGE);
      port = await listeningPort(t);
    });
    afterAll(() => t.close());

    const insertStreams = (scope: string, count: number) =>
      insertRows((query, params) => t.sql(query, params), scope, count);
    /** A request whose answer is read only when the test says so. */
    const open = (scope = big) => openUnread(port, `/v1/scopes/${scope}/streams`);
    const openSnapshots = () => snapshotsOf(t);

    it('holds one snapshot while a slow client reads: writes made meanwhile are not in it', async () => {
      const res = await open(huge);
      // The client reads nothing: the service waits, its transaction open, once the kernel's
      // buffers are full (they grow as they fill: on two busy cores, that can take seconds).
      expect(await eventually(openSnapshots, 1, { attempts: 300 })).toBe(1);
      await t.http.post(`/v1/scopes/${huge}/streams`).send({ streamName: 'zzz-late' }).expect(201);
      const { text } = await readToEnd(res);
      const listed = (JSON.parse(text) as { streams: { streamName: string }[] }).streams;
      expect(listed).toHaveLength(HUGE);
      expect(listed.map((s) => s.streamName)).not.toContain('zzz-late');
      expect(await eventually(openSnapshots, 0)).toBe(0);
    });

    it('cuts the answer short, never completes it, when the database fails mid-answer', async () => {
      // The service is still reading when its connection is lost (see HUGE).
      const res = await open(huge);
      // The answer has begun: its snapshot's transaction is open, between two reads or waiting
      // for the client.
      const killed = await t.sql<{ killed: boolean }>(
        `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND xact_start IS NOT NULL`,
      );
      expect(killed).toEqual([{ killed: true }]);
      const { text, complete } = await readToEnd(res);
      expect(complete).toBe(false);
      expect(text.length).toBeGreaterThan(0);
      expect(() => JSON.parse(text) as unknown).toThrow();
      // The service goes on: the next answer is whole.
      const after = await t.http.get(`/v1/scopes/${big}/streams?limit=1`).expect(200);
      expect(after.body).toMatchObject({ streams: [{ streamName: 'bulk-000001' }] });
    });

    it('answers HEAD on a whole list without a body, and keeps no transaction open', async () => {
      const res = await t.http.head(`/v1/scopes/${big}/streams`).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.text ?? '').toBe('');
      expect(await eventually(openSnapshots, 0)).toBe(0);
    });

    it('gives its connection back when clients go away mid-answer', async () => {
      // More clients than the pool has connections, each gone after the first bytes.
      for (let i = 0; i < 6; i++) {
        const res = await open();
        res.destroy();
      }
      expect(await eventually(openSnapshots, 0)).toBe(0);
      const after = await t.http.get(`/v1/scopes/${big}/streams?limit=1`).expect(200);
      expect(after.body).toMatchObject({ streams: [{ streamName: 'bulk-000001' }] });
    });
  });
});
