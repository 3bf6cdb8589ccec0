import { brokenInvariants } from './support/invariants';
import { PROBLEM_HEADERS, uniqueName } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

interface Change {
  action: string;
  kind: string;
  resource: string;
  diff?: unknown[];
}

interface FeedEvent {
  operation: string;
  kind: string;
  scopeName: string;
  object?: unknown;
  etag?: string;
}

/** A stream's create body: `minSegments` fixed segments, and whatever else is given. */
const stream = (streamName: string, minSegments = 1, more: object = {}) => ({
  streamName,
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
  ...more,
});

/** docs/extensions.md section 5: a scope's policy in an apply's document, and the plan held to it. */
describe('Declarative apply: scope policies (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(async () => {
    expect(await brokenInvariants((text) => t.sql(text))).toEqual([]);
  });
  afterAll(() => t.close());

  const apply = (document: object, { dryRun = false, ifMatch = '' } = {}) => {
    const call = t.http.post(`/v1/apply${dryRun ? '?dryRun=true' : ''}`).set(PROBLEM_HEADERS);
    if (ifMatch) call.set('If-Match', ifMatch);
    return call.send(document);
  };
  const one = (scopeName: string, scope: object, prune = false) => ({
    scopes: [{ scopeName, ...scope }],
    prune,
  });
  const policyOf = async (scope: string): Promise<unknown> =>
    (await t.http.get(`/v1/scopes/${scope}/policy`).expect(200)).body;
  const streamsOf = async (scope: string): Promise<string[]> =>
    (
      await t.sql<{ name: string }>(
        `SELECT name FROM streams WHERE scope_name = $1 AND name NOT LIKE '\\_%' ORDER BY name`,
        [scope],
      )
    ).map((row) => row.name);
  const policyChanges = (changes: Change[]) => changes.filter((c) => c.kind === 'scopePolicy');

  it('creates, updates, clears and leaves a policy, each audited and an event as its PUT', async () => {
    const scope = uniqueName('policy');
    const start = ((await t.http.get('/v1/events').expect(200)).body as { position: string })
      .position;
    const policy = { maxStreams: 3, retention: { maxDays: 30 } };

    const created = await apply(one(scope, { policy, streams: [stream('a')] })).expect(200);
    expect(created.body.changes).toEqual([
      { action: 'create', kind: 'scope', resource: `prn::/scope:${scope}` },
      { action: 'create', kind: 'scopePolicy', resource: `prn::/scope:${scope}` },
      { action: 'create', kind: 'stream', resource: `prn::/scope:${scope}/stream:a` },
    ]);
    expect(created.body).not.toHaveProperty('violations');
    expect(await policyOf(scope)).toEqual(policy);

    const updated = await apply(
      one(scope, { policy: { maxStreams: 4, retention: { maxDays: 60 } } }),
    ).expect(200);
    expect(policyChanges(updated.body.changes)).toEqual([
      {
        action: 'update',
        kind: 'scopePolicy',
        resource: `prn::/scope:${scope}`,
        diff: [
          { path: 'maxStreams', before: 3, after: 4 },
          { path: 'retention.maxDays', before: 30, after: 60 },
        ],
      },
    ]);
    const same = await apply(
      one(scope, { policy: { retention: { maxDays: 60 }, maxStreams: 4 } }),
    ).expect(200);
    expect(policyChanges(same.body.changes)).toMatchObject([{ action: 'unchanged' }]);
    const put = await t.http.get(`/v1/scopes/${scope}/policy`).expect(200);

    const cleared = await apply(one(scope, { policy: {} })).expect(200);
    expect(policyChanges(cleared.body.changes)).toMatchObject([{ action: 'delete' }]);
    expect(await policyOf(scope)).toEqual({});
    const again = await apply(one(scope, { policy: {} })).expect(200);
    expect(policyChanges(again.body.changes)).toMatchObject([{ action: 'unchanged' }]);

    const audit = await t.sql<{ operation: string; before: unknown; after: unknown }>(
      `SELECT operation, before, after FROM audit_events
        WHERE resource = $1 AND operation = 'updateScopePolicy' ORDER BY id`,
      [`prn::/scope:${scope}`],
    );
    expect(audit).toEqual([
      { operation: 'updateScopePolicy', before: {}, after: policy },
      {
        operation: 'updateScopePolicy',
        before: policy,
        after: { maxStreams: 4, retention: { maxDays: 60 } },
      },
      {
        operation: 'updateScopePolicy',
        before: { maxStreams: 4, retention: { maxDays: 60 } },
        after: {},
      },
    ]);
    // The policy is made before the scope's streams, each change its own audit row.
    const first = await t.sql<{ operation: string }>(
      `SELECT operation FROM audit_events WHERE resource LIKE $1 ORDER BY id LIMIT 3`,
      [`prn::/scope:${scope}%`],
    );
    expect(first.map((row) => row.operation)).toEqual([
      'createScope',
      'updateScopePolicy',
      'createStream',
    ]);

    const events = (
      (await t.http.get(`/v1/events?since=${start}&limit=100`).expect(200)).body as {
        events: FeedEvent[];
      }
    ).events.filter((e) => e.scopeName === scope && e.operation === 'updateScopePolicy');
    expect(events).toHaveLength(3);
    expect(events[1]).toMatchObject({
      kind: 'scope',
      object: { maxStreams: 4, retention: { maxDays: 60 } },
      etag: put.headers.etag,
    });
  });

  it('leaves a stored policy alone when the document sets none, prune or not', async () => {
    const scope = uniqueName('kept');
    await apply(one(scope, { policy: { owner: 'team', maxStreams: 5 }, streams: [stream('a')] }));
    const pruned = await apply(one(scope, { streams: [] }, true)).expect(200);
    expect(policyChanges(pruned.body.changes)).toEqual([]);
    expect(pruned.body.summary.delete).toBe(1);
    expect(await policyOf(scope)).toEqual({ owner: 'team', maxStreams: 5 });
  });

  it('refuses bad policy fields and unknown keys with 400 naming each full path', async () => {
    const scope = uniqueName('bad');
    const res = await apply({
      scopes: [
        { scopeName: scope, policy: { maxStreams: -1, retention: { maxDays: 0 } } },
        { scopeName: `${scope}-2`, policy: { maxstreams: 3, scalingTypes: ['SOMETIMES'] } },
      ],
    }).expect(400);
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(
      [
        'scopes[0].policy.maxStreams',
        'scopes[0].policy.retention.maxDays',
        'scopes[1].policy.maxstreams',
        'scopes[1].policy.scalingTypes',
      ].sort(),
    );
    await t.http.get(`/v1/scopes/${scope}`).expect(404);
  });

  it('lists every violation of every resource of every scope in a dry run, and a real apply is 422 changing nothing', async () => {
    const scope = uniqueName('strict');
    await apply(one(scope, { policy: { maxStreams: 3 }, streams: [stream('a', 2)] })).expect(200);
    const before = await t.http.get(`/v1/scopes/${scope}/policy`).expect(200);
    const other = `${scope}-new`;
    const document = {
      scopes: [
        {
          scopeName: scope,
          policy: { maxStreams: 2, maxSegmentsPerStream: 2, requiredTags: ['owner:*'] },
          streams: [
            stream('a', 2, { streamTags: ['owner:x'] }),
            stream('b', 3, { streamTags: ['owner:y'] }),
            stream('c'),
          ],
        },
        {
          scopeName: other,
          policy: { scalingTypes: ['BY_RATE_IN_EVENTS_PER_SEC'] },
          streams: [stream('d')],
        },
      ],
    };
    const expected = [
      expect.objectContaining({
        rule: 'maxSegmentsPerStream',
        limit: 2,
        actual: 3,
        resource: `prn::/scope:${scope}/stream:b`,
      }),
      expect.objectContaining({
        rule: 'requiredTags',
        limit: 'owner:*',
        resource: `prn::/scope:${scope}/stream:c`,
      }),
      expect.objectContaining({
        rule: 'maxStreams',
        limit: 2,
        actual: 3,
        resource: `prn::/scope:${scope}/stream:c`,
      }),
      expect.objectContaining({
        rule: 'scalingTypes',
        actual: 'FIXED_NUM_SEGMENTS',
        resource: `prn::/scope:${other}/stream:d`,
      }),
    ];

    const dry = await apply(document, { dryRun: true }).expect(200);
    expect(dry.body.violations).toEqual(expected);
    expect(dry.body.applied).toBe(false);

    const res = await apply(document).expect(422);
    expect(res.body.code).toBe('POLICY_VIOLATION');
    expect(res.body.violations).toEqual(expected);
    // Nothing half-written: neither the policy (made first) nor the streams.
    const after = await t.http.get(`/v1/scopes/${scope}/policy`).expect(200);
    expect([after.body, after.headers.etag]).toEqual([{ maxStreams: 3 }, before.headers.etag]);
    expect(await streamsOf(scope)).toEqual(['a']);
    const a = await t.http.get(`/v1/scopes/${scope}/streams/a`).expect(200);
    expect(a.body.tags).toEqual([]);
    await t.http.get(`/v1/scopes/${other}`).expect(404);
  });

  it('judges by the stored policy when the document sets none, and a clean plan has no violations', async () => {
    const scope = uniqueName('stored');
    await apply(one(scope, { policy: { streamNames: ['o-*'] } })).expect(200);
    const dry = await apply(one(scope, { streams: [stream('x')] }), { dryRun: true }).expect(200);
    expect(dry.body.violations).toEqual([
      expect.objectContaining({ rule: 'streamNames', resource: `prn::/scope:${scope}/stream:x` }),
    ]);
    const clean = await apply(one(scope, { streams: [stream('o-1')] }), { dryRun: true });
    expect(clean.status).toBe(200);
    expect(clean.body.violations ?? []).toEqual([]);
  });

  it('counts the whole plan: creates pass where prune makes room, and refuse past the limit', async () => {
    const scope = uniqueName('room');
    const policy = { maxStreams: 2, maxActiveSegments: 4 };
    await apply(one(scope, { policy, streams: [stream('a', 2), stream('b', 2)] })).expect(200);
    await apply(one(scope, { streams: [stream('c', 2), stream('d', 2)] })).expect(422);
    expect(await streamsOf(scope)).toEqual(['a', 'b']);

    // Created before the pruned ones go, yet counted with them gone.
    const swapped = await apply(one(scope, { streams: [stream('c', 2), stream('d', 2)] }, true));
    expect(swapped.status).toBe(200);
    expect(await streamsOf(scope)).toEqual(['c', 'd']);
    expect(await policyOf(scope)).toEqual(policy);
  });

  it('refuses with 412 an apply whose policy changed since its dry run', async () => {
    const scope = uniqueName('stale');
    await apply(one(scope, { policy: { maxStreams: 5 } })).expect(200);
    const document = one(scope, { streams: [stream('a')] });
    const plan = await apply(document, { dryRun: true }).expect(200);
    await t.http.put(`/v1/scopes/${scope}/policy`).send({ maxStreams: 6 }).expect(200);
    const res = await apply(document, { ifMatch: plan.body.planVersion }).expect(412);
    expect(res.body.code).toBe('PRECONDITION_FAILED');
    expect(await streamsOf(scope)).toEqual([]);
    const again = await apply(document, { dryRun: true }).expect(200);
    await apply(document, { ifMatch: again.body.planVersion }).expect(200);
  });
});
