import { Client } from 'pg';
import { SilenceSweep, SWEEP_LOCK } from '../src/autoscale/silence-sweep.service';
import { createScope, PROBLEM_HEADERS } from './support/factories';
import { coldReport as cold, hotReport as hot, RATE_POLICY } from './support/load-reports';
import { startTestApp, TestApp } from './support/test-app';

const MINUTE = 60_000;

interface Result {
  segment: number;
  outcome: string;
  reason?: string;
  wanted?: string;
  because?: string;
  sealedSegments?: number[];
  newSegments?: { number: number; keyStart: number; keyEnd: number }[];
  violations?: { rule: string }[];
}
interface Answer {
  epoch: number;
  results: Result[];
}

/** Scaling by load (docs/extensions.md section 11) through the HTTP app, on real PostgreSQL. */
describe('Scaling by load (e2e)', () => {
  let t: TestApp;
  let scope: string;

  beforeAll(async () => {
    // No mutes: a segment just opened may scale at once (the mutes have tests of their own).
    t = await startTestApp({ AUTOSCALE_MUTE_MS: '0' });
    scope = await createScope(t.http, 'load');
  });
  afterAll(() => t.close());

  const streamPath = (name: string) => `/v1/scopes/${scope}/streams/${name}`;
  const report = (name: string, reports: object[], query = '') =>
    t.http.post(`${streamPath(name)}/load${query}`).send({ reports });
  const taken = async (name: string, reports: object[], query = ''): Promise<Answer> =>
    (await report(name, reports, query).expect(200)).body as Answer;
  const createStream = (name: string, scalingPolicy: object) =>
    t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: name, scalingPolicy })
      .expect(201);
  const etag = async (name: string) =>
    (await t.http.get(streamPath(name)).expect(200)).headers.etag;
  const activeSegments = async (name: string) =>
    (
      (await t.http.get(`${streamPath(name)}/segments`).expect(200)).body as {
        segments: { number: number; keyStart: number; keyEnd: number }[];
      }
    ).segments;

  it('splits a hot segment into scaleFactor segments, then merges the cold ones back, each scale audited', async () => {
    await createStream('orders', { ...RATE_POLICY, minSegments: 1 });
    const before = await etag('orders');

    const up = await taken('orders', [hot(0)]);
    expect(up).toEqual({
      epoch: 1,
      results: [
        {
          segment: 0,
          outcome: 'scaledUp',
          because: 'two-minute rate 620.5 > 5 x 100: split into 3',
          sealedSegments: [0],
          newSegments: [
            expect.objectContaining({ number: 1, keyStart: 0, keyEnd: 1 / 3 }),
            expect.objectContaining({ number: 2, keyStart: 1 / 3, keyEnd: 2 / 3 }),
            expect.objectContaining({ number: 3, keyStart: 2 / 3, keyEnd: 1 }),
          ],
        },
      ],
    });
    expect(await etag('orders')).not.toBe(before);

    // 1 is marked cold alone; 2 then merges with it; 3 is marked; 4 (1 and 2) merges with it.
    const down = await taken('orders', [cold(1), cold(2), cold(3)]);
    expect(down.results.map((r) => [r.outcome, r.reason ?? r.sealedSegments])).toEqual([
      ['markedCold', 'NO_COLD_NEIGHBOUR'],
      ['scaledDown', [1, 2]],
      ['markedCold', 'NO_COLD_NEIGHBOUR'],
    ]);
    const back = await taken('orders', [cold(4)]);
    expect(back).toMatchObject({
      epoch: 3,
      results: [{ outcome: 'scaledDown', sealedSegments: [3, 4], newSegments: [{ number: 5 }] }],
    });
    expect(await activeSegments('orders')).toEqual([
      expect.objectContaining({ number: 5, keyStart: 0, keyEnd: 1 }),
    ]);
    // At its minimum, a cold segment is only marked.
    expect((await taken('orders', [cold(5)])).results[0]).toEqual({
      segment: 5,
      outcome: 'markedCold',
      reason: 'AT_MIN_SEGMENTS',
    });

    const rows = await t.sql<{ operation: string; after: { direction: string } }>(
      `SELECT operation, after FROM audit_events WHERE resource = $1 AND operation = 'reportLoad'
        ORDER BY id`,
      [`prn::/scope:${scope}/stream:orders`],
    );
    expect(rows.map((r) => r.after.direction)).toEqual(['up', 'down', 'down']);
  });

  it('makes each report see what the ones before it did, a scale each, with a row and an event each', async () => {
    await createStream('twice', { ...RATE_POLICY, minSegments: 2 });
    // Segment 2 exists once the first report has split segment 0, opened now: its mute, which
    // counts from its start time, holds it even at a mute of 0.
    const answer = await taken('twice', [hot(0), hot(1), cold(2)]);
    expect(answer.epoch).toBe(2);
    expect(answer.results.map((r) => [r.segment, r.outcome, r.wanted])).toEqual([
      [0, 'scaledUp', undefined],
      [1, 'scaledUp', undefined],
      [2, 'muted', 'down'],
    ]);
    const audited = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE resource = $1 AND operation = 'reportLoad'`,
      [`prn::/scope:${scope}/stream:twice`],
    );
    expect(audited[0].n).toBe(2);
    const events = await t.sql<{ body: string }>(
      `SELECT body FROM change_events WHERE resource = $1 ORDER BY id`,
      [`prn::/scope:${scope}/stream:twice`],
    );
    expect(events.map((e) => (JSON.parse(e.body) as { operation: string }).operation)).toEqual([
      'createStream',
      'reportLoad',
      'reportLoad',
    ]);
  });

  it('answers a dry run as the reports would, and changes nothing', async () => {
    await createStream('dry', { ...RATE_POLICY, minSegments: 1 });
    const before = await etag('dry');
    const dry = await taken('dry', [hot(0)], '?dryRun=true');
    expect(dry).toMatchObject({
      epoch: 1,
      results: [{ outcome: 'scaledUp', sealedSegments: [0] }],
    });
    expect(await etag('dry')).toBe(before);
    expect(await activeSegments('dry')).toHaveLength(1);
    const ranges = (answer: Answer) =>
      answer.results[0].newSegments?.map(({ number, keyStart, keyEnd }) => ({
        number,
        keyStart,
        keyEnd,
      }));
    expect(ranges(await taken('dry', [hot(0)]))).toEqual(ranges(dry));
  });

  it('leaves alone what it may not scale: cooling down, below the thresholds, fixed, sealed, not active', async () => {
    await createStream('calm', { ...RATE_POLICY, minSegments: 1 });
    const before = await etag('calm');
    const answer = await taken('calm', [{ ...hot(0), since: Date.now() - MINUTE }]);
    expect(answer.results).toEqual([{ segment: 0, outcome: 'none', reason: 'COOLING_DOWN' }]);
    expect((await taken('calm', [{ ...cold(0), twentyMinuteRate: 60 }])).results[0]).toEqual({
      segment: 0,
      outcome: 'none',
      reason: 'BELOW_THRESHOLD',
    });
    expect((await taken('calm', [hot(7)])).results[0]).toEqual({
      segment: 7,
      outcome: 'ignored',
      reason: 'SEGMENT_NOT_ACTIVE',
    });
    expect(await etag('calm')).toBe(before);

    await createStream('fixed', { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 });
    expect((await taken('fixed', [hot(0)])).results[0].reason).toBe('FIXED_POLICY');
    await t.http
      .put(`${streamPath('calm')}/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    expect((await taken('calm', [hot(0)])).results[0].reason).toBe('STREAM_SEALED');
  });

  it("refuses a scale the scope's policy forbids, naming the rules, and scales nothing", async () => {
    const policed = await createScope(t.http, 'load-policed');
    await t.http.put(`/v1/scopes/${policed}/policy`).send({ maxSegmentsPerStream: 2 }).expect(200);
    await t.http
      .post(`/v1/scopes/${policed}/streams`)
      .send({ streamName: 's', scalingPolicy: { ...RATE_POLICY, minSegments: 1 } })
      .expect(201);
    const res = await t.http
      .post(`/v1/scopes/${policed}/streams/s/load`)
      .send({ reports: [hot(0)] })
      .expect(200);
    expect((res.body as Answer).results).toEqual([
      {
        segment: 0,
        outcome: 'refused',
        reason: 'POLICY_VIOLATION',
        violations: [
          expect.objectContaining({ rule: 'maxSegmentsPerStream', limit: 2, actual: 3 }),
        ],
      },
    ]);
  });

  it('refuses each invalid report with a 400 naming its path, and a missing stream with a 404', async () => {
    await createStream('strict', { ...RATE_POLICY, minSegments: 1 });
    const fields = async (body: unknown): Promise<string[]> => {
      const res = await t.http
        .post(`${streamPath('strict')}/load`)
        .set(PROBLEM_HEADERS)
        .send(body as object)
        .expect(400);
      return (res.body as { errors: { field: string }[] }).errors.map((e) => e.field);
    };
    const ok = cold(0);
    expect(await fields({ reports: [] })).toEqual(['reports']);
    expect(await fields({})).toEqual(['reports']);
    expect(await fields({ reports: Array.from({ length: 1001 }, (_, i) => cold(i)) })).toEqual([
      'reports',
    ]);
    expect(
      await fields({
        reports: [ok, cold(1), cold(2), { ...cold(3), fiveMinuteRate: -1 }],
      }),
    ).toEqual(['reports[3].fiveMinuteRate']);
    expect(await fields({ reports: [ok, { ...cold(1), twoMinuteRate: 'fast' }] })).toEqual([
      'reports[1].twoMinuteRate',
    ]);
    expect(await fields({ reports: [{ ...ok, since: Date.now() + 5 * MINUTE }] })).toEqual([
      'reports[0].since',
    ]);
    expect(await fields({ reports: [ok, cold(0)] })).toEqual(['reports[1]']);
    expect(await fields({ reports: [{ ...ok, segment: 1.5 }] })).toEqual(['reports[0].segment']);
    expect(await fields({ reports: [{ ...ok, rate: 3 }] })).toEqual(['reports[0].rate']);
    expect(await fields({ reports: [ok], dryrun: true })).toEqual(['dryrun']);

    const bad = await t.http
      .post(`${streamPath('strict')}/load`)
      .set('Content-Type', 'application/json')
      .send('{"reports": [');
    expect(bad.status).toBe(400);
    await report('nowhere', [ok]).expect(404);
    await t.http
      .post('/v1/scopes/no-such-scope/streams/s/load')
      .send({ reports: [ok] })
      .expect(404);
    await t.http
      .post(`${streamPath('strict')}/load?dryRun=maybe`)
      .send({ reports: [ok] })
      .expect(400);
  });
});

describe('Scaling by load: mutes (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('mutes a segment opened less than the mute ago, in the direction it wants', async () => {
    const scope = await createScope(t.http, 'muted');
    await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: 's', scalingPolicy: { ...RATE_POLICY, minSegments: 1 } })
      .expect(201);
    const res = await t.http
      .post(`/v1/scopes/${scope}/streams/s/load`)
      .send({ reports: [hot(0)] })
      .expect(200);
    expect((res.body as Answer).results).toEqual([{ segment: 0, outcome: 'muted', wanted: 'up' }]);
  });
});

describe('Scaling by load: silence (e2e)', () => {
  let t: TestApp;
  let sweep: SilenceSweep;

  beforeAll(async () => {
    // The sweep is run by the test, not by its timer, at a silence of one second.
    t = await startTestApp({
      AUTOSCALE_MUTE_MS: '0',
      AUTOSCALE_SILENCE_MS: '1000',
      AUTOSCALE_SWEEP_MS: '86400000',
    });
    sweep = t.app.get(SilenceSweep);
  });
  afterAll(() => t.close());

  const segmentsOf = async (scope: string, name: string): Promise<number[]> =>
    (
      (await t.http.get(`/v1/scopes/${scope}/streams/${name}/segments`).expect(200)).body as {
        segments: { number: number }[];
      }
    ).segments.map((s) => s.number);

  it('merges the segments of a reported stream that no report names, one sweep at a time, as system:autoscale', async () => {
    const scope = await createScope(t.http, 'silent');
    const create = (name: string) =>
      t.http
        .post(`/v1/scopes/${scope}/streams`)
        .send({
          streamName: name,
          scalingPolicy: { ...RATE_POLICY, minSegments: 1, scaleFactor: 3 },
        })
        .expect(201);
    await create('reported');
    await create('never');
    // Three segments each; one report (below every threshold) makes `reported` a reported stream.
    for (const name of ['reported', 'never']) {
      await t.http
        .post(`/v1/scopes/${scope}/streams/${name}/scale`)
        .send({
          sealedSegments: [0],
          newRanges: [
            { keyStart: 0, keyEnd: 0.5 },
            { keyStart: 0.5, keyEnd: 0.75 },
            { keyStart: 0.75, keyEnd: 1 },
          ],
        })
        .expect(200);
    }
    await t.http
      .post(`/v1/scopes/${scope}/streams/reported/load`)
      .send({ reports: [{ ...cold(1), twentyMinuteRate: 60 }] })
      .expect(200);

    // Not silent yet: nothing happens.
    expect(await sweep.sweep()).toBe(true);
    expect(await segmentsOf(scope, 'reported')).toEqual([1, 2, 3]);

    await new Promise((resolve) => setTimeout(resolve, 1300));
    // Held by another sweep (here the test's own session), the lock makes this one skip its turn.
    const holder = new Client({ connectionString: t.url });
    await holder.connect();
    try {
      // In a transaction, as a sweep holds it: a pooler keeps the transaction on its connection.
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [SWEEP_LOCK]);
      expect(await sweep.sweep()).toBe(false);
      expect(await segmentsOf(scope, 'reported')).toEqual([1, 2, 3]);
    } finally {
      await holder.end();
    }

    // 1 is marked cold; 2 merges with it; 3 has no cold neighbour (the new 4 is not marked).
    expect(await sweep.sweep()).toBe(true);
    expect(await segmentsOf(scope, 'reported')).toEqual([4, 3]);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await sweep.sweep()).toBe(true);
    expect(await segmentsOf(scope, 'reported')).toEqual([5]);
    // A stream never reported is never scaled by silence.
    expect(await segmentsOf(scope, 'never')).toEqual([1, 2, 3]);

    const rows = await t.sql<{ principal: string; after: { because: string; direction: string } }>(
      `SELECT principal, after FROM audit_events WHERE resource = $1 AND operation = 'reportLoad'
        ORDER BY id`,
      [`prn::/scope:${scope}/stream:reported`],
    );
    expect(rows.map((r) => [r.principal, r.after.direction])).toEqual([
      ['system:autoscale', 'down'],
      ['system:autoscale', 'down'],
    ]);
    expect(rows[0].after.because).toBe('no report for more than 1 s: 2 cold segments merged');
  });
});
