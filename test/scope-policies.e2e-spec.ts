import { createScope, PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** A policy with every field, as a platform team would set it. */
const FULL = {
  owner: 'team-payments',
  description: 'Payments: card and wallet events.',
  maxStreams: 5,
  maxSegmentsPerStream: 16,
  maxActiveSegments: 40,
  streamNames: ['payments-*', 'audit-??'],
  scalingTypes: ['FIXED_NUM_SEGMENTS', 'BY_RATE_IN_EVENTS_PER_SEC'],
  retention: { required: true, maxDays: 30, maxSizeMb: 1024 },
  requiredTags: ['owner:*'],
};

interface FeedEvent {
  operation: string;
  kind: string;
  scopeName: string;
  object?: unknown;
  etag?: string;
}

describe('Scope policies: the resource (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const policyPath = (scope: string) => `/v1/scopes/${scope}/policy`;

  it('answers {} for a scope whose policy was never set, with a strong tag of its own', async () => {
    const scope = await createScope(t.http);
    const scopeGet = await t.http.get(`/v1/scopes/${scope}`).expect(200);
    const res = await t.http.get(policyPath(scope)).expect(200);
    expect(res.body).toEqual({});
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers.etag).not.toBe(scopeGet.headers.etag);
    await t.http.get(policyPath(scope)).set('If-None-Match', res.headers.etag).expect(304);
  });

  it('replaces the whole policy, answers it with a new tag, and leaves the scope and its tag alone', async () => {
    const scope = await createScope(t.http);
    const scopeBefore = await t.http.get(`/v1/scopes/${scope}`).expect(200);
    const before = await t.http.get(policyPath(scope)).expect(200);

    const put = await t.http.put(policyPath(scope)).send(FULL).expect(200);
    expect(put.body).toEqual(FULL);
    expect(put.headers.etag).not.toBe(before.headers.etag);
    const get = await t.http.get(policyPath(scope)).expect(200);
    // Every field, in the order sent: the stored document's own key order is not shown.
    expect(JSON.stringify(get.body)).toBe(JSON.stringify(FULL));
    expect(get.headers.etag).toBe(put.headers.etag);

    const scopeAfter = await t.http.get(`/v1/scopes/${scope}`).expect(200);
    expect(scopeAfter.body).toEqual(scopeBefore.body);
    expect(scopeAfter.headers.etag).toBe(scopeBefore.headers.etag);

    // A PUT replaces: what it leaves out is gone.
    const narrower = await t.http.put(policyPath(scope)).send({ maxStreams: 3 }).expect(200);
    expect(narrower.body).toEqual({ maxStreams: 3 });
    expect((await t.http.get(policyPath(scope)).expect(200)).body).toEqual({ maxStreams: 3 });
  });

  it('clears with {}, and no tag it had ever comes back', async () => {
    const scope = await createScope(t.http);
    const tags = [(await t.http.get(policyPath(scope)).expect(200)).headers.etag];
    for (const body of [FULL, {}, FULL, {}]) {
      const res = await t.http.put(policyPath(scope)).send(body).expect(200);
      expect(res.body).toEqual(body);
      tags.push(res.headers.etag);
    }
    expect((await t.http.get(policyPath(scope)).expect(200)).body).toEqual({});
    expect(new Set(tags).size).toBe(tags.length);
  });

  it('takes null as absent, and drops it from what it stores', async () => {
    const scope = await createScope(t.http);
    const res = await t.http
      .put(policyPath(scope))
      .send({ owner: null, maxStreams: 2, retention: { required: true, maxDays: null } })
      .expect(200);
    expect(res.body).toEqual({ maxStreams: 2, retention: { required: true } });
    expect((await t.http.get(policyPath(scope)).expect(200)).body).toEqual(res.body);
  });

  it('changes only with an If-Match that names its current tag, never the scope tag', async () => {
    const scope = await createScope(t.http);
    const scopeTag = (await t.http.get(`/v1/scopes/${scope}`).expect(200)).headers.etag;
    const first = (await t.http.get(policyPath(scope)).expect(200)).headers.etag;
    await t.http.put(policyPath(scope)).set('If-Match', scopeTag).send(FULL).expect(412);
    const put = await t.http.put(policyPath(scope)).set('If-Match', first).send(FULL).expect(200);
    await t.http.put(policyPath(scope)).set('If-Match', first).send({}).expect(412);
    await t.http.put(policyPath(scope)).set('If-Match', put.headers.etag).send({}).expect(200);
    await t.http
      .put(policyPath(scope))
      .set('If-Match', `W/${put.headers.etag}`)
      .send({})
      .expect(412);
  });

  it('lets one of several PUTs with the same If-Match through, and refuses the others with 412', async () => {
    const scope = await createScope(t.http);
    const tag = (await t.http.get(policyPath(scope)).expect(200)).headers.etag;
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.http
          .put(policyPath(scope))
          .set('If-Match', tag)
          .send({ maxStreams: i })
          .then((res) => res.status),
      ),
    );
    expect(statuses.sort()).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const [{ version }] = await t.sql<{ version: string }>(
      'SELECT version::text AS version FROM scope_policies WHERE scope_name = $1',
      [scope],
    );
    expect(version).toBe('1');
  });

  it('answers 404 for the policy of a scope that does not exist, and writes none', async () => {
    await t.http.get(policyPath('no-such-scope')).expect(404);
    const put = await t.http
      .put(policyPath('no-such-scope'))
      .set(PROBLEM_HEADERS)
      .send({ maxStreams: 1 })
      .expect(404);
    expect(put.body).toMatchObject({ code: 'SCOPE_NOT_FOUND' });
    const rows = await t.sql(`SELECT 1 FROM scope_policies WHERE scope_name = 'no-such-scope'`);
    expect(rows).toEqual([]);
  });

  it('goes with its scope: a scope created again under the name has no policy, and new tags', async () => {
    const scope = await createScope(t.http);
    const put = await t.http.put(policyPath(scope)).send(FULL).expect(200);
    await t.http.delete(`/v1/scopes/${scope}`).expect(204);
    await t.http.get(policyPath(scope)).expect(404);
    await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
    const again = await t.http.get(policyPath(scope)).expect(200);
    expect(again.body).toEqual({});
    expect(again.headers.etag).not.toBe(put.headers.etag);
    await t.http.put(policyPath(scope)).set('If-Match', put.headers.etag).send({}).expect(412);
  });

  it('is audited with what it replaced, and is an event of the feed with the policy and its tag', async () => {
    const scope = await createScope(t.http);
    const start = ((await t.http.get('/v1/events').expect(200)).body as { position: string })
      .position;
    await t.http.put(policyPath(scope)).send({ maxStreams: 1 }).expect(200);
    const put = await t.http.put(policyPath(scope)).send(FULL).expect(200);

    const events = (
      (await t.http.get(`/v1/events?since=${start}&limit=100`).expect(200)).body as {
        events: FeedEvent[];
      }
    ).events.filter((e) => e.scopeName === scope);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      operation: 'updateScopePolicy',
      kind: 'scope',
      object: FULL,
      etag: put.headers.etag,
    });

    const audit = await t.sql<{ operation: string; before: unknown; after: unknown }>(
      `SELECT operation, before, after FROM audit_events
        WHERE resource = $1 AND operation = 'updateScopePolicy' ORDER BY id`,
      [`prn::/scope:${scope}`],
    );
    expect(audit).toEqual([
      { operation: 'updateScopePolicy', before: {}, after: { maxStreams: 1 } },
      { operation: 'updateScopePolicy', before: { maxStreams: 1 }, after: FULL },
    ]);
  });

  describe('refuses an invalid policy with a 400 naming each path, and keeps the one stored', () => {
    let scope: string;
    beforeAll(async () => {
      scope = await createScope(t.http);
      await t.http.put(policyPath(scope)).send({ maxStreams: 7 }).expect(200);
    });
    afterEach(async () => {
      expect((await t.http.get(policyPath(scope)).expect(200)).body).toEqual({ maxStreams: 7 });
    });

    const refused = async (body: unknown): Promise<string[]> => {
      const res = await t.http
        .put(policyPath(scope))
        .set(PROBLEM_HEADERS)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body))
        .expect(400);
      expect(res.body.code).toBe('INVALID_REQUEST');
      // Each path once, however many of its rules it breaks.
      return [...new Set((res.body.errors as { field: string }[]).map((e) => e.field))];
    };

    it.each([
      ['owner', { owner: '' }],
      ['owner', { owner: 'x'.repeat(201) }],
      ['owner', { owner: 7 }],
      ['owner', { owner: 'a\u0000b' }],
      ['description', { description: 'x'.repeat(2001) }],
      ['maxStreams', { maxStreams: -1 }],
      ['maxStreams', { maxStreams: 1_000_001 }],
      ['maxStreams', { maxStreams: 1.5 }],
      ['maxStreams', { maxStreams: '5' }],
      ['maxSegmentsPerStream', { maxSegmentsPerStream: 0 }],
      ['maxSegmentsPerStream', { maxSegmentsPerStream: 100_001 }],
      ['maxActiveSegments', { maxActiveSegments: 0 }],
      ['maxActiveSegments', { maxActiveSegments: 10_000_001 }],
      ['streamNames', { streamNames: [] }],
      ['streamNames', { streamNames: 'a*' }],
      ['streamNames', { streamNames: Array.from({ length: 51 }, (_, i) => `p${i}`) }],
      ['streamNames[1]', { streamNames: ['a*', ''] }],
      ['streamNames[0]', { streamNames: ['x'.repeat(251)] }],
      ['streamNames[1]', { streamNames: ['a*', 'a*'] }],
      ['streamNames[0]', { streamNames: [5] }],
      ['scalingTypes', { scalingTypes: [] }],
      ['scalingTypes', { scalingTypes: ['BY_SIZE'] }],
      ['scalingTypes[1]', { scalingTypes: ['FIXED_NUM_SEGMENTS', 'FIXED_NUM_SEGMENTS'] }],
      ['retention', { retention: 'forever' }],
      ['retention.required', { retention: { required: 'yes' } }],
      ['retention.maxDays', { retention: { maxDays: 0 } }],
      ['retention.maxSizeMb', { retention: { maxSizeMb: 2.5 } }],
      ['requiredTags', { requiredTags: Array.from({ length: 21 }, (_, i) => `t${i}:*`) }],
      ['requiredTags[0]', { requiredTags: ['x'.repeat(257)] }],
    ])('%s: %j', async (field, body) => {
      expect(await refused(body)).toEqual([field]);
    });

    it('names every invalid field at once', async () => {
      expect(
        (await refused({ maxStreams: -1, owner: '', retention: { maxDays: 0 } })).sort(),
      ).toEqual(['maxStreams', 'owner', 'retention.maxDays']);
    });

    it('refuses unknown fields, nested ones too, naming each', async () => {
      expect((await refused({ maxStream: 5, retention: { maxDay: 1 } })).sort()).toEqual([
        'maxStream',
        'retention.maxDay',
      ]);
    });

    it('refuses a body that is not an object, and bad JSON', async () => {
      for (const body of [[], 'x', 5]) {
        await t.http
          .put(policyPath(scope))
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body))
          .expect(400);
      }
      await t.http
        .put(policyPath(scope))
        .set('Content-Type', 'application/json')
        .send('{"maxStreams": ')
        .expect(400);
    });
  });
});
