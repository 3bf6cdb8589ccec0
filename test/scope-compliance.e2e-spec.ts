import { createScope, fixedStream as stream, PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

interface Compliance {
  streams: number;
  activeSegments: number;
  limitsExceeded: string[];
  nonCompliantCount: number;
  nonCompliant: { streamName: string; violations: { rule: string }[] }[];
}

/** `GET .../policy/compliance`: how a scope stands against its policy now. */
describe('Scope policies: the compliance report (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const report = async (scope: string): Promise<Compliance> =>
    (await t.http.get(`/v1/scopes/${scope}/policy/compliance`).expect(200)).body as Compliance;

  const create = (scope: string, body: object) =>
    t.http.post(`/v1/scopes/${scope}/streams`).send(body).expect(201);

  /** Each listed stream with the rules it breaks. */
  const listed = (answer: Compliance) =>
    answer.nonCompliant.map((s) => [s.streamName, s.violations.map((v) => v.rule)]);

  it('counts user streams (sealed ones too) and active segments (of active streams), without a policy finding nothing wrong', async () => {
    const scope = await createScope(t.http, 'compliance');
    expect(await report(scope)).toEqual({
      streams: 0,
      activeSegments: 0,
      limitsExceeded: [],
      nonCompliantCount: 0,
      nonCompliant: [],
    });
    await create(scope, stream('a', 2));
    await create(scope, stream('b', 3));
    await create(scope, stream('c', 4));
    // A reader group's internal stream, and each stream's mark stream, are not counted.
    await t.http
      .post(`/v1/scopes/${scope}/readergroups`)
      .send({ readerGroupName: 'g', streams: ['a'] })
      .expect(201);
    await t.http
      .put(`/v1/scopes/${scope}/streams/c/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    expect(await report(scope)).toEqual({
      streams: 3,
      activeSegments: 5,
      limitsExceeded: [],
      nonCompliantCount: 0,
      nonCompliant: [],
    });
  });

  it('says which scope-wide limits are exceeded and which streams break which rules, names not among them', async () => {
    const scope = await createScope(t.http, 'compliance');
    await create(scope, stream('clicks', 1, { streamTags: ['owner:web'] }));
    await create(scope, stream('orders', 3));
    await create(
      scope,
      stream('payments', 1, { retentionPolicy: { type: 'LIMITED_DAYS', value: 30 } }),
    );
    await t.http
      .put(`/v1/scopes/${scope}/policy`)
      .send({
        maxStreams: 2,
        maxActiveSegments: 4,
        maxSegmentsPerStream: 2,
        streamNames: ['web-*'],
        retention: { required: true, maxDays: 7 },
        requiredTags: ['owner:*'],
      })
      .expect(200);

    const answer = await report(scope);
    expect(answer).toMatchObject({
      streams: 3,
      activeSegments: 5,
      limitsExceeded: ['maxStreams', 'maxActiveSegments'],
      nonCompliantCount: 3,
    });
    expect(listed(answer)).toEqual([
      ['clicks', ['retention.required']],
      ['orders', ['retention.required', 'requiredTags', 'maxSegmentsPerStream']],
      ['payments', ['retention.maxDays', 'requiredTags']],
    ]);
    expect(answer.nonCompliant[1].violations[2]).toEqual({
      rule: 'maxSegmentsPerStream',
      limit: 2,
      actual: 3,
      detail: 'The stream has 3 active segments, over the limit of 2.',
    });

    // A PUT that brings a stream into line takes it off the list; sealing frees its segments.
    await t.http
      .put(`/v1/scopes/${scope}/streams/clicks`)
      .send({
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
        retentionPolicy: { type: 'LIMITED_DAYS', value: 1 },
        streamTags: ['owner:web'],
      })
      .expect(200);
    await t.http
      .put(`/v1/scopes/${scope}/streams/orders/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    const after = await report(scope);
    expect(after).toMatchObject({
      streams: 3,
      activeSegments: 2,
      limitsExceeded: ['maxStreams'],
      nonCompliantCount: 2,
    });
    expect(listed(after)).toEqual([
      ['orders', ['retention.required', 'requiredTags']],
      ['payments', ['retention.maxDays', 'requiredTags']],
    ]);
  });

  it('lists the first hundred non-compliant streams by name and counts them all', async () => {
    const scope = await createScope(t.http, 'compliance');
    const names = Array.from({ length: 103 }, (_, i) => `s${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 10) {
      await Promise.all(names.slice(i, i + 10).map((name) => create(scope, stream(name))));
    }
    await t.http
      .put(`/v1/scopes/${scope}/policy`)
      .send({ requiredTags: ['x'] })
      .expect(200);
    const answer = await report(scope);
    expect([answer.streams, answer.nonCompliantCount]).toEqual([103, 103]);
    expect(answer.nonCompliant.map((s) => s.streamName)).toEqual(names.slice(0, 100));
  });

  it('is 404 for a missing scope or a name no scope can have, and 400 for a malformed path, with their problem documents', async () => {
    for (const name of ['no-such-scope', 'x'.repeat(300)]) {
      const missing = await t.http
        .get(`/v1/scopes/${name}/policy/compliance`)
        .set(PROBLEM_HEADERS)
        .expect(404);
      expect(missing.body).toMatchObject({ code: 'SCOPE_NOT_FOUND' });
    }
    const malformed = await t.http
      .get('/v1/scopes/%FF/policy/compliance')
      .set(PROBLEM_HEADERS)
      .expect(400);
    expect(JSON.stringify(malformed.body)).not.toMatch(/SELECT|at .*\.js/);
  });
});
