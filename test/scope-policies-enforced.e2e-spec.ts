import { createScope, fixedStream as stream, PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

interface Violation {
  rule: string;
  limit: unknown;
  actual?: unknown;
  detail: string;
}

/** What the policy of a scope holds every create, PUT and scale of its user streams to. */
describe('Scope policies: enforced on every change of a user stream (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const setPolicy = (scope: string, policy: object) =>
    t.http.put(`/v1/scopes/${scope}/policy`).send(policy).expect(200);

  /** A scope with `policy`, its name. */
  const policed = async (policy: object): Promise<string> => {
    const scope = await createScope(t.http, 'policed');
    await setPolicy(scope, policy);
    return scope;
  };

  /** The violations of a refused change, which must be a 422 POLICY_VIOLATION. */
  const violations = (res: {
    status: number;
    body: { code?: string; violations?: Violation[] };
  }): Violation[] => {
    expect([res.status, res.body.code]).toEqual([422, 'POLICY_VIOLATION']);
    return res.body.violations ?? [];
  };

  const userStreams = async (scope: string): Promise<string[]> =>
    (
      (await t.http.get(`/v1/scopes/${scope}/streams`).expect(200)).body as {
        streams: { streamName: string }[];
      }
    ).streams.map((s) => s.streamName);

  it('refuses a create that breaks stream rules with a bodiless 422, every rule named when asked', async () => {
    const scope = await policed({
      streamNames: ['orders-*'],
      scalingTypes: ['BY_RATE_IN_EVENTS_PER_SEC'],
      retention: { required: true },
      requiredTags: ['owner:*', 'tier:?'],
    });
    const plain = await t.http.post(`/v1/scopes/${scope}/streams`).send(stream('payments'));
    expect(plain.status).toBe(422);
    expect(plain.text).toBe('');

    const res = await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .set(PROBLEM_HEADERS)
      .send(stream('payments', 1, { streamTags: ['owner:team-a'] }));
    expect(violations(res)).toEqual([
      {
        rule: 'streamNames',
        limit: ['orders-*'],
        actual: 'payments',
        detail: "The stream name payments matches none of the scope's name patterns.",
      },
      {
        rule: 'scalingTypes',
        limit: ['BY_RATE_IN_EVENTS_PER_SEC'],
        actual: 'FIXED_NUM_SEGMENTS',
        detail: 'The scaling policy type FIXED_NUM_SEGMENTS is not one the scope allows.',
      },
      {
        rule: 'retention.required',
        limit: true,
        detail: 'The scope requires every stream to have a retention policy.',
      },
      {
        rule: 'requiredTags',
        limit: 'tier:?',
        actual: ['owner:team-a'],
        detail: 'No tag of the stream matches the required tag pattern tier:?.',
      },
    ]);
    expect(await userStreams(scope)).toEqual([]);

    await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({
        streamName: 'orders-eu',
        scalingPolicy: {
          type: 'BY_RATE_IN_EVENTS_PER_SEC',
          targetRate: 100,
          scaleFactor: 2,
          minSegments: 1,
        },
        retentionPolicy: { type: 'LIMITED_DAYS', value: 7 },
        streamTags: ['owner:team-a', 'tier:1'],
      })
      .expect(201);
    expect(await userStreams(scope)).toEqual(['orders-eu']);
  });

  it('bounds retention in days, hours and minutes as fractions of a day, and in MB', async () => {
    const scope = await policed({ retention: { maxDays: 7, maxSizeMb: 500 } });
    const days = (value: object) => stream(`d${Math.random()}`.replace('.', ''), 1, value);
    const create = (body: object) =>
      t.http.post(`/v1/scopes/${scope}/streams`).set(PROBLEM_HEADERS).send(body);
    const overDays = await create(
      days({
        retentionPolicy: {
          type: 'LIMITED_DAYS',
          value: 0,
          timeBasedRetention: { days: 7, hours: 0, minutes: 0 },
          maxValue: 0,
          maxTimeBasedRetention: { days: 7, hours: 12, minutes: 0 },
        },
      }),
    );
    expect(violations(overDays)).toEqual([
      expect.objectContaining({ rule: 'retention.maxDays', limit: 7, actual: 7.5 }),
    ]);
    expect(
      (await create(days({ retentionPolicy: { type: 'LIMITED_DAYS', value: 7 } }))).status,
    ).toBe(201);
    const overSize = await create(
      days({ retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 100, maxValue: 501 } }),
    );
    expect(violations(overSize)).toEqual([
      expect.objectContaining({ rule: 'retention.maxSizeMb', limit: 500, actual: 501 }),
    ]);
    // Without a retention policy, and not required: nothing to bound.
    expect((await create(days({}))).status).toBe(201);
  });

  it('answers a retried refusal with an Idempotency-Key as it answered it, violations included', async () => {
    const scope = await policed({ maxStreams: 0 });
    const send = () =>
      t.http
        .post(`/v1/scopes/${scope}/streams`)
        .set(PROBLEM_HEADERS)
        .set('Idempotency-Key', `refused-${scope}`)
        .send(stream('s'));
    const first = violations(await send());
    expect(first).toEqual([expect.objectContaining({ rule: 'maxStreams', limit: 0, actual: 1 })]);
    expect(violations(await send())).toEqual(first);
    expect(await userStreams(scope)).toEqual([]);
  });

  it('answers 409, not 422, for a create of a stream that exists, whatever the policy', async () => {
    const scope = await createScope(t.http, 'policed');
    await t.http.post(`/v1/scopes/${scope}/streams`).send(stream('legacy', 3)).expect(201);
    await setPolicy(scope, { streamNames: ['new-*'], maxSegmentsPerStream: 2, maxStreams: 1 });
    const res = await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .set(PROBLEM_HEADERS)
      .send(stream('legacy', 3))
      .expect(409);
    expect(res.body.code).toBe('STREAM_EXISTS');
  });

  it('counts user streams, sealed ones too, but never internal ones, against maxStreams', async () => {
    const scope = await policed({ maxStreams: 2 });
    const create = (name: string) =>
      t.http.post(`/v1/scopes/${scope}/streams`).set(PROBLEM_HEADERS).send(stream(name));
    expect((await create('a')).status).toBe(201);
    expect((await create('b')).status).toBe(201);
    expect(violations(await create('c'))).toEqual([
      {
        rule: 'maxStreams',
        limit: 2,
        actual: 3,
        detail: 'The change would make 3 user streams in the scope, over the limit of 2.',
      },
    ]);
    // A reader group's internal stream is never refused, nor counted.
    await t.http
      .post(`/v1/scopes/${scope}/readergroups`)
      .send({ readerGroupName: 'g', streams: ['a'] })
      .expect(201);
    // Sealed, b still counts; deleted, it no longer does.
    await t.http
      .put(`/v1/scopes/${scope}/streams/b/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    expect((await create('c')).status).toBe(422);
    await t.http.delete(`/v1/scopes/${scope}/streams/b`).expect(204);
    expect((await create('c')).status).toBe(201);
  });

  it('lets a policy be set that existing streams break, and a change lower a count that is over', async () => {
    const scope = await createScope(t.http, 'policed');
    for (const name of ['x', 'y']) {
      await t.http.post(`/v1/scopes/${scope}/streams`).send(stream(name, 4)).expect(201);
    }
    await setPolicy(scope, { maxStreams: 1, maxSegmentsPerStream: 2, maxActiveSegments: 3 });
    const path = `/v1/scopes/${scope}/streams/x`;
    // 8 active segments over 3: going down to 6 passes, though still over.
    const lower = await t.http.put(path).send({ scalingPolicy: stream('x', 2).scalingPolicy });
    expect(lower.status).toBe(200);
    // Leaving the count as it is passes too (a change of tags alone).
    await t.http
      .put(`/v1/scopes/${scope}/streams/y`)
      .send({ scalingPolicy: stream('y', 4).scalingPolicy, streamTags: ['t'] })
      .expect(200);
    // Raising it, even within the per-stream limit, does not.
    const raise = await t.http
      .put(path)
      .set(PROBLEM_HEADERS)
      .send({ scalingPolicy: stream('x', 3).scalingPolicy });
    expect(violations(raise)).toEqual([
      expect.objectContaining({ rule: 'maxSegmentsPerStream', limit: 2, actual: 3 }),
      expect.objectContaining({ rule: 'maxActiveSegments', limit: 3, actual: 7 }),
    ]);
  });

  it('holds a PUT to the stream rules, and changes nothing when it refuses', async () => {
    const scope = await createScope(t.http, 'policed');
    await t.http.post(`/v1/scopes/${scope}/streams`).send(stream('old-name')).expect(201);
    await setPolicy(scope, { streamNames: ['new-*'], requiredTags: ['owner:*'] });
    const path = `/v1/scopes/${scope}/streams/old-name`;
    const before = await t.http.get(path).expect(200);
    // The name is a rule of creates alone; the tags are the stream's to bring into line.
    const refused = await t.http
      .put(path)
      .set(PROBLEM_HEADERS)
      .send({ scalingPolicy: stream('s').scalingPolicy, streamTags: ['team-a'] });
    expect(violations(refused).map((v) => [v.rule, v.limit])).toEqual([
      ['requiredTags', 'owner:*'],
    ]);
    const unchanged = await t.http.get(path).expect(200);
    expect(unchanged.body).toEqual(before.body);
    expect(unchanged.headers.etag).toBe(before.headers.etag);
    await t.http
      .put(path)
      .send({ scalingPolicy: stream('s').scalingPolicy, streamTags: ['owner:team-a'] })
      .expect(200);
  });

  it('refuses a scale by hand that raises active segments over a limit, its dry run alike, and lets a merge through', async () => {
    const scope = await createScope(t.http, 'policed');
    const path = `/v1/scopes/${scope}/streams/s`;
    const byRate = {
      type: 'BY_RATE_IN_KBYTES_PER_SEC',
      targetRate: 10,
      scaleFactor: 2,
      minSegments: 1,
    };
    await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: 's', scalingPolicy: byRate })
      .expect(201);
    const range = (keyStart: number, keyEnd: number) => ({ keyStart, keyEnd });
    // Segment 0 into 1 and 2, then 2 into 3 and 4: segments 1, 3 and 4 are active.
    await t.http
      .post(`${path}/scale`)
      .send({ sealedSegments: [0], newRanges: [range(0, 0.5), range(0.5, 1)] })
      .expect(200);
    await t.http
      .post(`${path}/scale`)
      .send({ sealedSegments: [2], newRanges: [range(0.5, 0.75), range(0.75, 1)] })
      .expect(200);
    // Over the limit already, and of a scaling type the policy does not allow.
    await setPolicy(scope, { maxSegmentsPerStream: 2, scalingTypes: ['FIXED_NUM_SEGMENTS'] });
    const before = await t.http.get(path).expect(200);
    const split = { sealedSegments: [1], newRanges: [range(0, 0.25), range(0.25, 0.5)] };
    for (const query of ['', '?dryRun=true']) {
      const res = await t.http.post(`${path}/scale${query}`).set(PROBLEM_HEADERS).send(split);
      // A scale is judged by the count limits alone, not by the stream rules (scalingTypes).
      expect(violations(res)).toEqual([
        expect.objectContaining({ rule: 'maxSegmentsPerStream', limit: 2, actual: 4 }),
      ]);
    }
    expect((await t.http.get(path).expect(200)).headers.etag).toBe(before.headers.etag);
    // A merge lowers the count, from 3 to 2: it passes.
    await t.http
      .post(`${path}/scale`)
      .send({ sealedSegments: [3, 4], newRanges: [range(0.5, 1)] })
      .expect(200);
  });

  it('never refuses sealing or deleting a stream, nor creating a stream in a scope without a policy', async () => {
    const scope = await policed({ maxStreams: 0, requiredTags: ['never'] });
    const free = await createScope(t.http, 'free');
    await t.http.post(`/v1/scopes/${free}/streams`).send(stream('s')).expect(201);
    // The policy only came after the stream: sealing and deleting still go.
    await setPolicy(free, { maxStreams: 0, requiredTags: ['never'] });
    await t.http
      .put(`/v1/scopes/${free}/streams/s/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    await t.http.delete(`/v1/scopes/${free}/streams/s`).expect(204);
    expect((await t.http.post(`/v1/scopes/${scope}/streams`).send(stream('s'))).status).toBe(422);
    // Cleared, the policy no longer holds anything back.
    await setPolicy(scope, {});
    await t.http.post(`/v1/scopes/${scope}/streams`).send(stream('s')).expect(201);
  });

  it("holds an apply's stream changes to the policy: one that breaks it fails the whole apply", async () => {
    const scope = await policed({ maxStreams: 1 });
    const document = {
      scopes: [{ scopeName: scope, streams: [{ streamName: 'a' }, { streamName: 'b' }] }],
    };
    const res = await t.http.post('/v1/apply').set(PROBLEM_HEADERS).send(document);
    expect(violations(res)).toEqual([
      expect.objectContaining({
        rule: 'maxStreams',
        limit: 1,
        actual: 2,
        resource: `prn::/scope:${scope}/stream:b`,
      }),
    ]);
    expect(await userStreams(scope)).toEqual([]);
    await setPolicy(scope, { maxStreams: 2 });
    await t.http.post('/v1/apply').send(document).expect(200);
    expect(await userStreams(scope)).toEqual(['a', 'b']);
  });

  it('lets exactly maxStreams of many racing creates through, the others 422, none 5xx', async () => {
    const scope = await policed({ maxStreams: 5, maxActiveSegments: 9 });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.http
          .post(`/v1/scopes/${scope}/streams`)
          .send(stream(`s${i}`))
          .then((res) => res.status),
      ),
    );
    expect(statuses.sort()).toEqual([...Array(5).fill(201), ...Array(15).fill(422)]);
    expect(await userStreams(scope)).toHaveLength(5);
  });
});
