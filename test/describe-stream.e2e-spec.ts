import { createScope, PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const fixed = (minSegments: number) => ({
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
});

/** docs/extensions.md section 4: `GET .../streams/{t}/description`. */
describe('Describe a stream (e2e)', () => {
  let t: TestApp;
  let scope: string;

  const describePath = (stream: string, inScope = scope) =>
    `/v1/scopes/${inScope}/streams/${stream}/description`;
  const scalingEvents = async (stream: string) =>
    (
      await t.http
        .get(`/v1/scopes/${scope}/streams/${stream}/scaling-events`)
        .query({ from: 0, to: Date.now() + 60_000 })
        .expect(200)
    ).body.scalingEvents as { timestamp: number; segmentList: unknown[] }[];

  beforeAll(async () => {
    t = await startTestApp();
    scope = await createScope(t.http, 'described');
  });
  afterAll(() => t.close());

  it('describes a new stream: epoch 0, its segments, no lastScaledAt, no reader groups', async () => {
    const [{ before }] = await t.sql<{ before: number }>(
      `SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::float8 AS before`,
    );
    const created = await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: 'fresh', ...fixed(3), streamTags: ['x'] })
      .expect(201);
    const [{ after }] = await t.sql<{ after: number }>(
      `SELECT ceil(extract(epoch FROM clock_timestamp()) * 1000)::float8 AS after`,
    );
    const res = await t.http.get(describePath('fresh')).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.etag).toBe(created.headers.etag);
    const [epoch0] = await scalingEvents('fresh');
    expect(res.body).toEqual({
      scopeName: scope,
      streamName: 'fresh',
      state: 'ACTIVE',
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      configuration: created.body,
      currentEpoch: 0,
      activeSegments: epoch0.segmentList,
      readerGroups: [],
    });
    expect(res.body).not.toHaveProperty('lastScaledAt');
    expect(res.body.activeSegments.map((s: { number: number }) => s.number)).toEqual([0, 1, 2]);
    expect(res.body.activeSegments[2]).toMatchObject({ keyStart: 2 / 3, keyEnd: 1 });
    // Between two readings of the database's clock, the one that stamped it.
    expect(res.body.createdAt).toBeGreaterThanOrEqual(before);
    expect(res.body.createdAt).toBeLessThanOrEqual(after);
    expect(res.body.updatedAt).toBe(res.body.createdAt);
  });

  it('follows updates, rescales and sealing, with the stream ETag each time', async () => {
    await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: 'busy' }).expect(201);
    const first = (await t.http.get(describePath('busy')).expect(200)).body;

    // Tags only: no new epoch, but an update.
    await t.http
      .put(`/v1/scopes/${scope}/streams/busy`)
      .send({ ...fixed(1), streamTags: ['t'] })
      .expect(200);
    const tagged = (await t.http.get(describePath('busy')).expect(200)).body;
    expect(tagged.currentEpoch).toBe(0);
    expect(tagged).not.toHaveProperty('lastScaledAt');
    expect(tagged.configuration.tags).toEqual(['t']);
    expect(tagged.updatedAt).toBeGreaterThanOrEqual(first.updatedAt);
    expect(tagged.createdAt).toBe(first.createdAt);

    // A rescale: epoch 1, its segments, and when it happened.
    const updated = await t.http.put(`/v1/scopes/${scope}/streams/busy`).send(fixed(4)).expect(200);
    const rescaled = await t.http.get(describePath('busy')).expect(200);
    expect(rescaled.headers.etag).toBe(updated.headers.etag);
    const events = await scalingEvents('busy');
    expect(rescaled.body).toMatchObject({
      state: 'ACTIVE',
      currentEpoch: 1,
      lastScaledAt: events[1].timestamp,
      activeSegments: events[1].segmentList,
      configuration: updated.body,
    });
    expect(rescaled.body.activeSegments.map((s: { number: number }) => s.number)).toEqual([
      1, 2, 3, 4,
    ]);

    const sealed = await t.http
      .put(`/v1/scopes/${scope}/streams/busy/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    const described = await t.http.get(describePath('busy')).expect(200);
    expect(described.body.state).toBe('SEALED');
    expect(described.headers.etag).toBe(sealed.headers.etag);
    expect(described.body.lastScaledAt).toBe(events[1].timestamp);
  });

  it('names the reader groups that read the stream, from any scope, as scope/group', async () => {
    await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: 'read' }).expect(201);
    const other = await createScope(t.http, 'aaa-readers');
    for (const [inScope, readerGroupName, streams] of [
      [scope, 'zeta', ['read']],
      [scope, 'alpha', ['read']],
      [other, 'remote', [`${scope}/read`]],
    ] as const) {
      await t.http
        .post(`/v1/scopes/${inScope}/readergroups`)
        .send({ readerGroupName, streams })
        .expect(201);
    }
    const { body } = await t.http.get(describePath('read')).expect(200);
    expect(body.readerGroups).toEqual([`${other}/remote`, `${scope}/alpha`, `${scope}/zeta`]);
    await t.http.delete(`/v1/scopes/${scope}/readergroups/zeta`).expect(204);
    expect((await t.http.get(describePath('read')).expect(200)).body.readerGroups).toEqual([
      `${other}/remote`,
      `${scope}/alpha`,
    ]);
  });

  it('answers 404 as GET stream does: empty unless a problem document is asked for', async () => {
    const bare = await t.http.get(describePath('missing')).expect(404);
    expect(bare.text).toBe('');
    const stream = await t.http.get(describePath('missing')).set(PROBLEM_HEADERS).expect(404);
    expect(stream.body.code).toBe('STREAM_NOT_FOUND');
    const noScope = await t.http
      .get(describePath('missing', 'no-such-scope'))
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect(noScope.body.code).toBe('SCOPE_NOT_FOUND');
  });

  it('describes an internal stream as GET stream shows it', async () => {
    await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: 'owner' }).expect(201);
    const get = await t.http.get(`/v1/scopes/${scope}/streams/_MARKowner`);
    const res = await t.http.get(describePath('_MARKowner'));
    expect(res.status).toBe(get.status);
    expect(res.body.configuration).toEqual(get.body);
    expect(res.headers.etag).toBe(get.headers.etag);
  });

  it('refuses names that cannot exist as GET stream does', async () => {
    const get = await t.http.get(`/v1/scopes/${scope}/streams/bad%20name`);
    const res = await t.http.get(describePath('bad%20name'));
    expect(res.status).toBe(get.status);
  });
});
