import { writeFile } from 'node:fs/promises';
import { AccessFiles } from '../src/auth/access-files.service';
import { EventsService } from '../src/events/events.service';
import { FeedRetention } from '../src/events/feed-retention.service';
import { basic, writeAccounts } from './support/accounts';
import { eventually } from './support/eventually';
import { PROBLEM_HEADERS } from './support/factories';
import { SseClient } from './support/sse-client';
import { startTestApp, TestApp } from './support/test-app';

type Event = Record<string, unknown>;

/** docs/extensions.md section 8: the change feed, against the real service and database. */
describe('The change feed (e2e)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => t.close());

  const newest = async (): Promise<string> =>
    ((await t.http.get('/v1/events').expect(200)).body as { position: string }).position;
  const after = async (since: string, query = ''): Promise<Event[]> =>
    (
      (await t.http.get(`/v1/events?since=${since}&limit=1000${query}`).expect(200)).body as {
        events: Event[];
      }
    ).events;

  it('answers the newest position without since, and nothing for a request that asks no feed', async () => {
    const start = await newest();
    expect(start).toMatch(/^\d+$/);
    const res = await t.http.get('/v1/events').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ events: [], position: start });
    await t.http.get('/v1/scopes').expect(200);
    expect(await newest()).toBe(start);
  });

  it('keeps every character of what a change carries (quotes, backslashes, any script)', async () => {
    const start = await newest();
    const tags = ["it's", 'back\\slash', '"quoted"', "$$ E'x' $$", 'naïve 東京 \u{1F30A}'];
    await t.http.post('/v1/scopes').send({ scopeName: 'quoting' }).expect(201);
    const created = await t.http
      .post('/v1/scopes/quoting/streams')
      .send({ streamName: 'tagged', streamTags: tags })
      .expect(201);
    const events = await after(start);
    expect(events.map((e) => e.operation)).toEqual(['createScope', 'createStream']);
    expect(events[1].object).toEqual(created.body);
    expect((events[1].object as { tags: string[] }).tags).toEqual(tags);
  });

  it('makes each change one event, shaped as section 8 says, with the object and ETag of its GET', async () => {
    const start = await newest();
    const seen: Array<{ operation: string; get?: string }> = [];
    const change = async (
      operation: string,
      call: () => Promise<{ status: number }>,
      get?: string,
    ) => {
      const res = await call();
      expect([operation, res.status < 300]).toEqual([operation, true]);
      seen.push({ operation, get });
    };
    const s = '/v1/scopes/feed';
    await change('createScope', () => t.http.post('/v1/scopes').send({ scopeName: 'feed' }), s);
    await change(
      'createStream',
      () => t.http.post(`${s}/streams`).send({ streamName: 'orders' }),
      `${s}/streams/orders`,
    );
    await change(
      'updateStream',
      () =>
        t.http
          .put(`${s}/streams/orders`)
          .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 } }),
      `${s}/streams/orders`,
    );
    await change(
      'scaleStream',
      () =>
        t.http.post(`${s}/streams/orders/scale`).send({
          sealedSegments: [2],
          newRanges: [
            { keyStart: 0.5, keyEnd: 0.75 },
            { keyStart: 0.75, keyEnd: 1 },
          ],
        }),
      `${s}/streams/orders`,
    );
    await change(
      'createReaderGroup',
      () => t.http.post(`${s}/readergroups`).send({ readerGroupName: 'g', streams: ['orders'] }),
      `${s}/readergroups/g`,
    );
    await change(
      'setReaderOnline',
      () => t.http.put(`${s}/readergroups/g/readers/r1`),
      `${s}/readergroups/g`,
    );
    await change(
      'setReaderOffline',
      () => t.http.delete(`${s}/readergroups/g/readers/r1`),
      `${s}/readergroups/g`,
    );
    await change('deleteReaderGroup', () => t.http.delete(`${s}/readergroups/g`));
    await change(
      'updateStreamState',
      () => t.http.put(`${s}/streams/orders/state`).send({ streamState: 'SEALED' }),
      `${s}/streams/orders`,
    );
    await change('deleteStream', () => t.http.delete(`${s}/streams/orders`));
    await change('deleteScope', () => t.http.delete(s));

    const events = await after(start);
    expect(events.map((e) => e.operation)).toEqual(seen.map((c) => c.operation));
    expect(events.map((e) => BigInt(e.id as string))).toEqual(
      events.map((_, i) => BigInt(start) + BigInt(i + 1)),
    );
    for (const event of events) {
      expect(typeof event.time).toBe('number');
      expect(event.principal).toBe('anonymous');
      expect(event.scopeName).toBe('feed');
      expect(typeof event.requestId).toBe('string');
    }
    expect(events[0]).toMatchObject({ kind: 'scope', resource: 'prn::/scope:feed' });
    expect(events[1]).toMatchObject({
      kind: 'stream',
      resource: 'prn::/scope:feed/stream:orders',
      streamName: 'orders',
    });
    expect(events[4]).toMatchObject({
      kind: 'readerGroup',
      resource: 'prn::/scope:feed/reader-group:g',
      readerGroupName: 'g',
    });
    const deletes = events.filter((e) => String(e.operation).startsWith('delete'));
    expect(deletes).toHaveLength(3);
    for (const event of deletes) {
      expect(event).not.toHaveProperty('etag');
      expect(event).not.toHaveProperty('object');
    }
  });

  it("writes a change's audit row before it takes the feed's counter", async () => {
    // What each audit row saw when it was inserted: whether its own transaction had moved the
    // feed's counter already (the counter's row as it sees it was written by it).
    await t.sql(`CREATE TABLE audit_saw_counter (request_id text, counter_moved boolean)`);
    await t.sql(`CREATE FUNCTION audit_saw_counter() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO audit_saw_counter
        SELECT NEW.request_id, xmin::text = (pg_current_xact_id()::text::bigint % 4294967296)::text
          FROM change_feed;
        RETURN NULL;
      END $$`);
    await t.sql(`CREATE TRIGGER audit_saw_counter AFTER INSERT ON audit_events
      FOR EACH ROW EXECUTE FUNCTION audit_saw_counter()`);
    try {
      const created = await t.http
        .post('/v1/scopes')
        .send({ scopeName: 'audit-first' })
        .expect(201);
      const stream = await t.http
        .post('/v1/scopes/audit-first/streams')
        .send({ streamName: 'one' })
        .expect(201);
      const ids = [created, stream].map((res) => res.headers['x-request-id']);
      const seen = await t.sql<{ request_id: string; counter_moved: boolean }>(
        'SELECT request_id, counter_moved FROM audit_saw_counter WHERE request_id = ANY($1) ORDER BY request_id',
        [ids],
      );
      expect(seen).toEqual(ids.sort().map((id) => ({ request_id: id, counter_moved: false })));
    } finally {
      await t.sql('DROP TRIGGER audit_saw_counter ON audit_events');
      await t.sql('DROP FUNCTION audit_saw_counter()');
      await t.sql('DROP TABLE audit_saw_counter');
    }
  });

  it('shows in object and etag what GET answers right after the change', async () => {
    const start = await newest();
    await t.http.post('/v1/scopes').send({ scopeName: 'shown' }).expect(201);
    const path = '/v1/scopes/shown/streams';
    await t.http
      .post(path)
      .send({ streamName: 's', streamTags: ['a'] })
      .expect(201);
    const streamGet = await t.http.get(`${path}/s`).expect(200);
    await t.http
      .post('/v1/scopes/shown/readergroups')
      .send({ readerGroupName: 'g', streams: ['s'] });
    await t.http.put('/v1/scopes/shown/readergroups/g/readers/one').expect(204);
    const groupGet = await t.http.get('/v1/scopes/shown/readergroups/g').expect(200);
    const scopeGet = await t.http.get('/v1/scopes/shown').expect(200);
    const events = await after(start);
    expect(events[0]).toMatchObject({ object: scopeGet.body, etag: scopeGet.headers.etag });
    expect(events[1]).toMatchObject({ object: streamGet.body, etag: streamGet.headers.etag });
    expect(JSON.stringify(events[1].object)).toBe(JSON.stringify(streamGet.body));
    expect(events[3]).toMatchObject({
      operation: 'setReaderOnline',
      object: groupGet.body,
      etag: groupGet.headers.etag,
    });
  });

  it('makes no event of reads, failures, Idempotency-Key replays or the apply summary', async () => {
    const start = await newest();
    const key = { 'Idempotency-Key': 'feed-replay-1' };
    await t.http.post('/v1/scopes').set(key).send({ scopeName: 'once' }).expect(201);
    await t.http.post('/v1/scopes').set(key).send({ scopeName: 'once' }).expect(201);
    await t.http.post('/v1/scopes').send({ scopeName: 'once' }).expect(409);
    await t.http.delete('/v1/scopes/missing').expect(404);
    await t.http.get('/v1/scopes/once').expect(200);
    const applied = await t.http.post('/v1/apply').send({
      scopes: [{ scopeName: 'applied', streams: [{ streamName: 'a' }, { streamName: 'b' }] }],
    });
    expect(applied.status).toBe(200);
    const events = await after(start);
    expect(events.map((e) => `${String(e.operation)} ${String(e.resource)}`)).toEqual([
      'createScope prn::/scope:once',
      'createScope prn::/scope:applied',
      'createStream prn::/scope:applied/stream:a',
      'createStream prn::/scope:applied/stream:b',
    ]);
    const audit = await t.sql(`SELECT 1 FROM audit_events WHERE operation = 'applyDocument'`);
    expect(audit.length).toBeGreaterThan(0);
  });

  it('pages with limit and position, and filters by scope', async () => {
    await t.http.post('/v1/scopes').send({ scopeName: 'pa' }).expect(201);
    const start = await newest();
    for (const name of ['x', 'y', 'z']) {
      await t.http.post('/v1/scopes/pa/streams').send({ streamName: name }).expect(201);
      await t.http
        .post('/v1/scopes')
        .send({ scopeName: `other-${name}` })
        .expect(201);
    }
    const first = await t.http.get(`/v1/events?since=${start}&limit=2`).expect(200);
    expect(first.body.events).toHaveLength(2);
    expect(first.body.position).toBe(first.body.events[1].id);
    const scoped = await t.http.get(`/v1/events?since=${start}&scope=pa&limit=2`).expect(200);
    expect(scoped.body.events.map((e: Event) => e.streamName)).toEqual(['x', 'y']);
    const rest = await t.http.get(`/v1/events?since=${scoped.body.position}&scope=pa`).expect(200);
    expect(rest.body.events.map((e: Event) => e.streamName)).toEqual(['z']);
    const end = await t.http.get(`/v1/events?since=${rest.body.position}&scope=pa`).expect(200);
    expect(end.body).toEqual({ events: [], position: rest.body.position });
  });

  it.each([
    ['since=abc', 'since'],
    ['since=-1', 'since'],
    ['since=1.5', 'since'],
    ['since=99999999999999999999', 'since'],
    ['since=0&limit=0', 'limit'],
    ['since=0&limit=1001', 'limit'],
    ['since=0&limit=ten', 'limit'],
    ['since=0&wait=61', 'wait'],
    ['since=0&wait=-1', 'wait'],
    ['since=0&scope=_x', 'scope'],
  ])('answers 400 to %s', async (query, field) => {
    const res = await t.http.get(`/v1/events?${query}`).set(PROBLEM_HEADERS).expect(400);
    expect(res.body.code).toBe('INVALID_REQUEST');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it.each([
    ['limit=abc', 'limit', 'limit must be an integer from 1 to 1000'],
    ['since=0&limit=0', 'limit', 'limit must be an integer from 1 to 1000'],
    ['since=0&limit=1&limit=2', 'limit', 'limit must be an integer from 1 to 1000'],
    ['since=0&wait=-1', 'wait', 'wait must be a whole number of seconds from 0 to 60'],
    ['since=0&wait=1.5', 'wait', 'wait must be a whole number of seconds from 0 to 60'],
    ...['99999999999999999999', '9223372036854775808', '-1'].map((since) => [
      `since=${since}`,
      'since',
      'since must be an event id: a decimal integer from 0 to 9223372036854775807',
    ]),
  ])('names the problem of %s once', async (query, field, message) => {
    const res = await t.http.get(`/v1/events?${query}`).set(PROBLEM_HEADERS);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        type: 'urn:tributary:problem:invalid-request',
        title: 'Bad request',
        status: 400,
        detail: `${field}: ${message}`,
        code: 'INVALID_REQUEST',
        instance: `/v1/events?${query}`,
        requestId: expect.any(String),
        errors: [{ field, message }],
      },
    });
  });

  it('answers 400 to a since beyond the newest event, as a page and as a stream', async () => {
    const beyond = String(BigInt(await newest()) + 5n);
    const res = await t.http.get(`/v1/events?since=${beyond}`).expect(400);
    expect(res.body.detail).toMatch(/beyond the newest/);
    const stream = await SseClient.open(`${base}/v1/events`, { 'Last-Event-ID': beyond });
    expect(stream.status).toBe(400);
    const bad = await SseClient.open(`${base}/v1/events`, { 'Last-Event-ID': 'x' });
    expect(bad.status).toBe(400);
  });

  it('waits for the first event with wait, and answers empty when none comes', async () => {
    const start = await newest();
    const answer = fetch(`${base}/v1/events?since=${start}&wait=20`).then(async (res) => ({
      body: (await res.json()) as { events: Event[] },
    }));
    // The change comes once the poll has found nothing and waits.
    const waiting = () => Promise.resolve(t.app.get(EventsService).waitingLongPolls);
    expect(await eventually(waiting, 1)).toBe(1);
    await t.http.post('/v1/scopes').send({ scopeName: 'awaited' }).expect(201);
    const { body } = await answer;
    expect(body.events.map((e) => e.resource)).toEqual(['prn::/scope:awaited']);
    const none = await t.http.get(`/v1/events?since=${await newest()}&wait=1`).expect(200);
    expect(none.body.events).toEqual([]);
  });

  it('streams Server-Sent Events from the newest, after since, and after Last-Event-ID (which wins)', async () => {
    const start = await newest();
    const live = await SseClient.open(`${base}/v1/events`);
    expect(live.status).toBe(200);
    expect(live.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(live.headers['cache-control']).toMatch(/no-cache/);
    expect(live.headers['x-accel-buffering']).toBe('no');
    await live.until((c) => c.comments.length > 0);
    await t.http.post('/v1/scopes').send({ scopeName: 'sse-1' }).expect(201);
    await t.http.post('/v1/scopes').send({ scopeName: 'sse-2' }).expect(201);
    await live.until((c) => c.events.length === 2);
    expect(live.events.map((e) => e.event)).toEqual(['createScope', 'createScope']);
    expect(live.events.map((e) => e.id)).toEqual([
      String(BigInt(start) + 1n),
      String(BigInt(start) + 2n),
    ]);
    expect(live.data.map((e) => e.id)).toEqual(live.events.map((e) => e.id));
    expect(live.data.map((e) => e.scopeName)).toEqual(['sse-1', 'sse-2']);

    const fromSince = await SseClient.open(`${base}/v1/events?since=${start}`);
    await fromSince.until((c) => c.events.length === 2);
    const resumed = await SseClient.open(`${base}/v1/events?since=0`, {
      'Last-Event-ID': String(BigInt(start) + 1n),
    });
    await resumed.until((c) => c.events.length === 1);
    expect(resumed.data[0].scopeName).toBe('sse-2');
    const scoped = await SseClient.open(`${base}/v1/events?since=${start}&scope=sse-2`);
    await scoped.until((c) => c.events.length === 1);
    expect(scoped.data[0].scopeName).toBe('sse-2');
    for (const client of [live, fromSince, resumed, scoped]) client.close();
  });

  it('reads an empty Last-Event-ID as none: since, else the newest, says where to start', async () => {
    const start = await newest();
    await t.http.post('/v1/scopes').send({ scopeName: 'sse-empty' }).expect(201);
    const fromSince = await SseClient.open(`${base}/v1/events?since=${start}`, {
      'Last-Event-ID': '',
    });
    expect(fromSince.status).toBe(200);
    await fromSince.until((c) => c.events.length === 1);
    expect(fromSince.data.map((e) => [e.id, e.scopeName])).toEqual([
      [String(BigInt(start) + 1n), 'sse-empty'],
    ]);
    const fromNewest = await SseClient.open(`${base}/v1/events`, { 'Last-Event-ID': ' ' });
    expect(fromNewest.status).toBe(200);
    await fromNewest.until((c) => c.comments.length > 0);
    expect(fromNewest.events).toEqual([]);
    for (const client of [fromSince, fromNewest]) client.close();
  });

  it('pages a change that committed before the page was asked, though the tail has not read it yet', async () => {
    const live = await SseClient.open(`${base}/v1/events`);
    await t.http.post('/v1/scopes').send({ scopeName: 'tail-read' }).expect(201);
    // The stream has the change: the tail, in memory, has read up to it.
    await live.until((c) => c.events.length === 1);
    const start = live.events[0].id!;
    // A change committed without its notification: the tail is not told of it.
    const body = JSON.stringify({
      time: Date.now(),
      operation: 'createScope',
      kind: 'scope',
      resource: 'prn::/scope:unannounced',
      scopeName: 'unannounced',
      principal: 'anonymous',
    });
    await t.sql(
      `WITH next AS (UPDATE change_feed SET last_id = last_id + 1 RETURNING last_id)
       INSERT INTO change_events (id, scope_name, resource, body)
       SELECT last_id, 'unannounced', 'prn::/scope:unannounced', $1 FROM next`,
      [body],
    );
    const page = await t.http.get(`/v1/events?since=${start}`).expect(200);
    expect(page.body.events).toEqual([
      expect.objectContaining({ id: String(BigInt(start) + 1n), scopeName: 'unannounced' }),
    ]);
    live.close();
  });
});

describe('The change feed: limits, retention and shutdown (e2e)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ EVENTS_MAX_STREAMS: '2', EVENTS_RETENTION_HOURS: '1' });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => t.close());

  it('refuses a stream beyond EVENTS_MAX_STREAMS with 503 and Retry-After, and takes one again when one ends', async () => {
    const one = await SseClient.open(`${base}/v1/events`);
    const two = await SseClient.open(`${base}/v1/events`);
    const three = await SseClient.open(`${base}/v1/events`);
    expect([one.status, two.status, three.status]).toEqual([200, 200, 503]);
    expect(three.headers['retry-after']).toBeDefined();
    await three.until((c) => c.ended !== undefined);
    expect(JSON.parse(three.body)).toMatchObject({ code: 'TOO_MANY_STREAMS' });
    // Pages are not streams.
    await t.http.get('/v1/events').expect(200);
    one.close();
    let again: SseClient | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      again = await SseClient.open(`${base}/v1/events`);
      if (again.status === 200) break;
      again.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again?.status).toBe(200);
    again?.close();
    two.close();
  });

  it('answers HEAD for a stream with its headers and no body, and holds no stream for it', async () => {
    for (let i = 0; i < 3; i++) {
      const head = await t.http.head('/v1/events').set('Accept', 'text/event-stream').expect(200);
      expect(head.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(head.text ?? '').toBe('');
    }
    // Both places of EVENTS_MAX_STREAMS (2) are free.
    const one = await SseClient.open(`${base}/v1/events`);
    const two = await SseClient.open(`${base}/v1/events`);
    expect([one.status, two.status]).toEqual([200, 200]);
    one.close();
    two.close();
  });

  it('deletes expired events in batches from the start of the feed and answers 410 behind them', async () => {
    for (const name of ['r1', 'r2', 'r3', 'r4']) {
      await t.http.post('/v1/scopes').send({ scopeName: name }).expect(201);
    }
    const ids = (await t.sql<{ id: string }>('SELECT id FROM change_events ORDER BY id')).map(
      (row) => BigInt(row.id),
    );
    // The first three are old; the fourth is not, nor what follows it.
    await t.sql(
      `UPDATE change_events SET at = now() - interval '2 hours' WHERE id <= $1 OR id = $2`,
      [String(ids[ids.length - 2]), String(ids[ids.length - 1])],
    );
    await t.sql(`UPDATE change_events SET at = now() WHERE id = $1`, [String(ids[ids.length - 2])]);
    const deleted = await t.app.get(FeedRetention).purge(1);
    expect(deleted).toBe(ids.length - 2);
    const kept = (await t.sql<{ id: string }>('SELECT id FROM change_events ORDER BY id')).map(
      (row) => BigInt(row.id),
    );
    expect(kept).toEqual(ids.slice(-2));
    const oldest = kept[0];
    const gone = await t.http.get('/v1/events?since=0').expect(410);
    expect(gone.body.code).toBe('FEED_POSITION_EXPIRED');
    expect(gone.headers['content-type']).toMatch(/problem\+json/);
    await t.http.get(`/v1/events?since=${oldest - 2n}`).expect(410);
    const fromEdge = await t.http.get(`/v1/events?since=${oldest - 1n}`).expect(200);
    expect(fromEdge.body.events).toHaveLength(2);
    const stream = await SseClient.open(`${base}/v1/events`, { 'Last-Event-ID': '0' });
    expect(stream.status).toBe(410);
  });

  it('ends every stream cleanly when the service stops, and answers a waiting long poll', async () => {
    const stream = await SseClient.open(`${base}/v1/events`);
    await stream.until((c) => c.comments.length > 0 || c.ended !== undefined);
    expect([stream.status, stream.body]).toEqual([200, ': connected\n\n']);
    const since = ((await t.http.get('/v1/events').expect(200)).body as { position: string })
      .position;
    const poll = fetch(`${base}/v1/events?since=${since}&wait=30`);
    const waiting = () => Promise.resolve(t.app.get(EventsService).waitingLongPolls);
    expect(await eventually(waiting, 1)).toBe(1);
    const started = Date.now();
    const closing = t.app.close();
    await stream.until((c) => c.ended !== undefined);
    expect(stream.ended).toBe('end');
    const answer = await poll;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ events: [], position: since });
    await closing;
    // Well before the long poll's 30 s.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('The change feed with authentication on (e2e)', () => {
  let t: TestApp;
  let base: string;
  let accountsFile: string;
  const ACCOUNTS = {
    admin: 'prn::*,READ_UPDATE',
    /** The root, and one scope and what is in it. */
    sales: 'prn::/,READ;prn::/scope:sales,READ;prn::/scope:sales/*,READ',
    /** One scope, not the root. */
    scoped: 'prn::/scope:sales,READ;prn::/scope:sales/*,READ',
    nobody: 'prn::/scope:elsewhere,READ',
    /** Removed by a reload while it watches. */
    leaving: 'prn::/,READ',
  };

  beforeAll(async () => {
    accountsFile = await writeAccounts(ACCOUNTS);
    t = await startTestApp({ AUTH_ENABLED: 'true', AUTH_ACCOUNTS_FILE: accountsFile });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => t.close());

  const as = (user: string) => ({ Authorization: basic(user) });

  it('needs READ on the root, or with scope READ on that scope', async () => {
    await t.http.get('/v1/events').expect(401);
    await t.http.get('/v1/events').set(as('nobody')).expect(403);
    await t.http.get('/v1/events').set(as('scoped')).expect(403);
    await t.http.get('/v1/events?scope=sales').set(as('scoped')).expect(200);
    await t.http.get('/v1/events?scope=other').set(as('scoped')).expect(403);
    await t.http.get('/v1/events').set(as('sales')).expect(200);
    const denied = await SseClient.open(`${base}/v1/events`, as('nobody'));
    expect(denied.status).toBe(403);
    // A denial is no event.
    const position = (await t.http.get('/v1/events').set(as('admin'))).body.position;
    await t.http.post('/v1/scopes').set(as('nobody')).send({ scopeName: 'no' }).expect(403);
    expect((await t.http.get('/v1/events').set(as('admin'))).body.position).toBe(position);
  });

  it('shows each caller only the events of what it may READ, as it may when each is sent (SIGHUP)', async () => {
    const start = (await t.http.get('/v1/events').set(as('admin')).expect(200)).body.position;
    const stream = await SseClient.open(`${base}/v1/events`, as('sales'));
    await stream.until((c) => c.comments.length > 0);
    await t.http.post('/v1/scopes').set(as('admin')).send({ scopeName: 'sales' }).expect(201);
    await t.http.post('/v1/scopes').set(as('admin')).send({ scopeName: 'hidden' }).expect(201);
    await t.http
      .post('/v1/scopes/sales/streams')
      .set(as('admin'))
      .send({ streamName: 'orders' })
      .expect(201);
    await stream.until((c) => c.events.length === 2);
    const page = await t.http.get(`/v1/events?since=${start}`).set(as('sales')).expect(200);
    expect(page.body.events.map((e: Event) => e.resource)).toEqual([
      'prn::/scope:sales',
      'prn::/scope:sales/stream:orders',
    ]);
    const all = await t.http.get(`/v1/events?since=${start}`).set(as('admin')).expect(200);
    expect(all.body.events).toHaveLength(3);

    // The account loses sight of the scope's streams; the open stream obeys at once. It still
    // sees the scope `seen`, whose creation at the end tells when the stream is past the rest.
    await writeFile(
      accountsFile,
      (await import('node:fs/promises').then((fs) => fs.readFile(accountsFile, 'utf8'))).replace(
        /^sales:([^:]*):.*$/m,
        'sales:$1:prn::/,READ;prn::/scope:sales,READ;prn::/scope:seen,READ',
      ),
    );
    t.app.get(AccessFiles).reload();
    await t.http
      .post('/v1/scopes/sales/streams')
      .set(as('admin'))
      .send({ streamName: 'secret' })
      .expect(201);
    await t.http
      .post('/v1/scopes/sales/readergroups')
      .set(as('admin'))
      .send({
        readerGroupName: 'g',
        streams: ['orders'],
      });
    await t.http.delete('/v1/scopes/hidden').set(as('admin')).expect(204);
    await t.http.post('/v1/scopes').set(as('admin')).send({ scopeName: 'sales2' }).expect(201);
    const marker = (await t.http.get('/v1/events').set(as('admin'))).body.position;
    // A stream it saw before: its changes are hidden now.
    await t.http
      .put('/v1/scopes/sales/streams/orders')
      .set(as('admin'))
      .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 }, streamTags: ['x'] })
      .expect(200);
    const page2 = await t.http.get(`/v1/events?since=${marker}`).set(as('sales')).expect(200);
    expect(page2.body.events).toEqual([]);
    // Events are sent in order: once the stream shows `seen`, it has passed over the others.
    await t.http.post('/v1/scopes').set(as('admin')).send({ scopeName: 'seen' }).expect(201);
    await stream.until((c) => c.data.some((e) => e.resource === 'prn::/scope:seen'));
    expect(stream.data.map((e) => e.resource)).toEqual([
      'prn::/scope:sales',
      'prn::/scope:sales/stream:orders',
      'prn::/scope:seen',
    ]);
    stream.close();
  });

  it('ends the streams of an account a reload removed, without counting them as failed logins', async () => {
    // More streams than AUTH_MAX_FAILURES (5): were each end a failed login, the address would
    // be locked out.
    const streams = await Promise.all(
      Array.from({ length: 7 }, () => SseClient.open(`${base}/v1/events`, as('leaving'))),
    );
    expect(streams.map((s) => s.status)).toEqual(Array(7).fill(200));
    await Promise.all(streams.map((s) => s.until((c) => c.comments.length > 0)));
    const fs = await import('node:fs/promises');
    await writeFile(
      accountsFile,
      (await fs.readFile(accountsFile, 'utf8')).replace(/^leaving:.*\n/m, ''),
    );
    t.app.get(AccessFiles).reload();
    await t.http.post('/v1/scopes').set(as('admin')).send({ scopeName: 'wake' }).expect(201);
    await Promise.all(streams.map((s) => s.until((c) => c.ended !== undefined)));
    expect(streams.map((s) => [s.ended, s.events.length])).toEqual(Array(7).fill(['end', 0]));
    await t.http.get('/v1/events').set(as('admin')).expect(200);
    await t.http.get('/v1/events').set(as('leaving')).expect(401);
  });
});
