import fc from 'fast-check';
import { Client } from 'pg';
import { createScope, PROBLEM_HEADERS, uniqueName } from './support/factories';
import { eventually } from './support/eventually';
import { brokenInvariants } from './support/invariants';
import { hotReport, RATE_POLICY } from './support/load-reports';
import { startTestApp, TestApp } from './support/test-app';

interface Counts {
  user_streams: number;
  active_segments: number;
}

/** One change of a scope's streams, by the index of a stream among the few a run names. */
type Action =
  | { kind: 'create'; stream: number; segments: number }
  | { kind: 'rescale'; stream: number; segments: number }
  | { kind: 'split'; stream: number }
  | { kind: 'hot'; stream: number }
  | { kind: 'seal'; stream: number }
  | { kind: 'delete'; stream: number }
  | { kind: 'readerGroup'; stream: number }
  | { kind: 'apply'; streams: number[]; prune: boolean }
  | { kind: 'policy'; maxActiveSegments: number };

const STREAMS = 4;
const stream = fc.integer({ min: 0, max: STREAMS - 1 });
const segments = fc.integer({ min: 1, max: 4 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), stream, segments }),
  fc.record({ kind: fc.constant('rescale' as const), stream, segments }),
  fc.record({ kind: fc.constant('split' as const), stream }),
  fc.record({ kind: fc.constant('hot' as const), stream }),
  fc.record({ kind: fc.constant('seal' as const), stream }),
  fc.record({ kind: fc.constant('delete' as const), stream }),
  fc.record({ kind: fc.constant('readerGroup' as const), stream }),
  fc.record({
    kind: fc.constant('apply' as const),
    streams: fc.uniqueArray(stream, { maxLength: STREAMS }),
    prune: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('policy' as const),
    maxActiveSegments: fc.integer({ min: 2, max: 30 }),
  }),
);

/** A sequence with every kind of action, whose answers include each of 200, 201, 204 and 422. */
const EVERY_KIND: Action[] = [
  { kind: 'create', stream: 0, segments: 2 },
  { kind: 'create', stream: 1, segments: 1 },
  { kind: 'rescale', stream: 0, segments: 3 },
  { kind: 'split', stream: 0 },
  { kind: 'hot', stream: 1 },
  { kind: 'readerGroup', stream: 0 },
  { kind: 'apply', streams: [0, 1, 2], prune: false },
  { kind: 'create', stream: 3, segments: 4 },
  { kind: 'policy', maxActiveSegments: 4 },
  { kind: 'rescale', stream: 2, segments: 4 },
  { kind: 'seal', stream: 1 },
  { kind: 'delete', stream: 1 },
  { kind: 'apply', streams: [0], prune: true },
];

/**
 * The counts a policy's row keeps for its count limits (docs/ARCHITECTURE.md, "Counts a policy
 * limits") against what is there, after any changes, refused ones and racing ones included.
 */
describe('The counts a scope policy limits (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ AUTOSCALE_MUTE_MS: '0' });
  });
  afterEach(async () => {
    expect(await brokenInvariants((text) => t.sql(text))).toEqual([]);
  });
  afterAll(() => t.close());

  const countsOf = async (scope: string): Promise<Counts> =>
    (
      await t.sql<Counts>(
        'SELECT user_streams, active_segments FROM scope_policy_counts WHERE scope_name = $1',
        [scope],
      )
    )[0];

  /** What is there, counted: the user streams, and the active segments of the active ones. */
  const counted = async (scope: string): Promise<Counts> =>
    (
      await t.sql<Counts>(
        `SELECT (SELECT count(*)::int FROM streams
                  WHERE scope_name = $1 AND name NOT LIKE '\\_%') AS user_streams,
                (SELECT count(*)::int FROM stream_segments g
                   JOIN streams s ON s.scope_name = g.scope_name AND s.name = g.stream_name
                  WHERE g.scope_name = $1 AND g.sealed_in IS NULL AND s.state = 'ACTIVE'
                    AND s.name NOT LIKE '\\_%') AS active_segments`,
        [scope],
      )
    )[0];

  const streamPath = (scope: string, i: number) => `/v1/scopes/${scope}/streams/s${i}`;

  /** Makes the action through the API; any answer but a 5xx is one the action may get. */
  const act = async (scope: string, a: Action): Promise<number> => {
    const http = t.http;
    switch (a.kind) {
      case 'create':
        return (
          await http.post(`/v1/scopes/${scope}/streams`).send({
            streamName: `s${a.stream}`,
            scalingPolicy: { ...RATE_POLICY, minSegments: a.segments },
          })
        ).status;
      case 'rescale':
        return (
          await http
            .put(streamPath(scope, a.stream))
            .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: a.segments } })
        ).status;
      case 'split': {
        const [first] = await t.sql<{ number: number; key_start: number; key_end: number }>(
          `SELECT number, key_start, key_end FROM stream_segments
            WHERE scope_name = $1 AND stream_name = $2 AND sealed_in IS NULL
            ORDER BY key_start LIMIT 1`,
          [scope, `s${a.stream}`],
        );
        if (!first) return (await http.get(streamPath(scope, a.stream))).status;
        const middle = (first.key_start + first.key_end) / 2;
        return (
          await http.post(`${streamPath(scope, a.stream)}/scale`).send({
            sealedSegments: [first.number],
            newRanges: [
              { keyStart: first.key_start, keyEnd: middle },
              { keyStart: middle, keyEnd: first.key_end },
            ],
          })
        ).status;
      }
      case 'hot': {
        const open = await t.sql<{ number: number }>(
          `SELECT number FROM stream_segments
            WHERE scope_name = $1 AND stream_name = $2 AND sealed_in IS NULL ORDER BY number`,
          [scope, `s${a.stream}`],
        );
        // Every open segment hot at once: one batch, several scales in its one transaction.
        const reports = open.map((segment) => hotReport(segment.number));
        if (reports.length === 0) reports.push(hotReport(0));
        return (await http.post(`${streamPath(scope, a.stream)}/load`).send({ reports })).status;
      }
      case 'seal':
        return (
          await http.put(`${streamPath(scope, a.stream)}/state`).send({ streamState: 'SEALED' })
        ).status;
      case 'delete':
        return (await http.delete(streamPath(scope, a.stream))).status;
      case 'readerGroup': {
        const group = `g${a.stream}`;
        const made = await http
          .post(`/v1/scopes/${scope}/readergroups`)
          .send({ readerGroupName: group, streams: [`${scope}/s${a.stream}`] });
        if (made.status !== 201) return made.status;
        return (await http.delete(`/v1/scopes/${scope}/readergroups/${group}`)).status;
      }
      case 'apply':
        return (
          await http
            .post('/v1/apply')
            .set(PROBLEM_HEADERS)
            .send({
              prune: a.prune,
              scopes: [
                {
                  scopeName: scope,
                  streams: a.streams.map((i) => ({
                    streamName: `s${i}`,
                    scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: i + 1 },
                  })),
                },
              ],
            })
        ).status;
      case 'policy':
        return (
          await http
            .put(`/v1/scopes/${scope}/policy`)
            .send({ maxStreams: 3, maxActiveSegments: a.maxActiveSegments })
        ).status;
    }
  };

  it('keeps them equal to what is there through any sequence of changes, refused ones too', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 14 }), async (actions) => {
        const scope = await createScope(t.http, 'counted');
        await t.http
          .put(`/v1/scopes/${scope}/policy`)
          .send({ maxStreams: 3, maxActiveSegments: 12 })
          .expect(200);
        for (const a of actions) {
          const status = await act(scope, a);
          statuses.add(status);
          expect([a, status < 500]).toEqual([a, true]);
          expect(await countsOf(scope)).toEqual(await counted(scope));
        }
      }),
      { numRuns: 12, examples: [[EVERY_KIND]] },
    );
    // The runs made changes, and the policy refused some (the example's create of a fourth stream).
    expect([...statuses].filter((s) => [200, 201, 204, 422].includes(s)).sort()).toEqual([
      200, 201, 204, 422,
    ]);
  });

  it('counts a scope rightly when its first policy is set while its streams are created and scaled', async () => {
    for (let round = 0; round < 3; round++) {
      const scope = await createScope(t.http, 'raced');
      const path = (name: string) => `/v1/scopes/${scope}/streams/${name}`;
      for (const name of ['a', 'b']) {
        await t.http
          .post(`/v1/scopes/${scope}/streams`)
          .send({ streamName: name, scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 } })
          .expect(201);
      }
      const changes = Array.from({ length: 16 }, (_, i) =>
        i % 4 === 0
          ? t.http
              .put(path(i % 8 === 0 ? 'a' : 'b'))
              .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 + (i % 3) } })
          : t.http.post(`/v1/scopes/${scope}/streams`).send({
              streamName: uniqueName('c'),
              scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 + (i % 2) },
            }),
      );
      const policy = t.http.put(`/v1/scopes/${scope}/policy`).send({ maxActiveSegments: 1000 });
      const answers = await Promise.all([...changes.slice(0, 8), policy, ...changes.slice(8)]);
      expect(answers.map((a) => a.status).filter((s) => s >= 300)).toEqual([]);
      expect(await countsOf(scope)).toEqual(await counted(scope));
      expect((await countsOf(scope)).user_streams).toBe(14);
    }
  });

  it("lets a change take its share of the counts' lock while a first policy waits to count", async () => {
    const scope = await createScope(t.http, 'queued');
    await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: 'a', scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 } })
      .expect(201);
    // Two changes of stream a as the database sees them, each on a connection of its own.
    const [wrote, holdsRow] = [
      new Client({ connectionString: t.url }),
      new Client({ connectionString: t.url }),
    ];
    await Promise.all([wrote.connect(), holdsRow.connect()]);
    const share = 'SELECT pg_advisory_xact_lock_shared(7404, hashtext($1))';
    const rowOfA = `SELECT 1 FROM streams WHERE scope_name = $1 AND name = 'a' FOR NO KEY UPDATE`;
    try {
      // One has written the scope's streams (its trigger holds the lock shared) and will next
      // want a's row; the other holds a's row and is about to write.
      await wrote.query('BEGIN');
      await wrote.query(share, [scope]);
      await holdsRow.query('BEGIN');
      await holdsRow.query(`SET LOCAL lock_timeout = '3s'`);
      await holdsRow.query(rowOfA, [scope]);
      const policy = t.http.put(`/v1/scopes/${scope}/policy`).send({ maxStreams: 10 }).then();
      const counting = () =>
        t
          .sql<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE query LIKE '%FROM scope_policy_usage(%' AND pid <> pg_backend_pid()
                AND wait_event IN ('advisory', 'PgSleep')`,
          )
          .then(([row]) => row.n);
      expect(await eventually(counting, 1)).toBe(1);
      // Had the count queued for the lock, this request would queue behind it, and the next
      // statement would close a cycle of the three (here the lock timeout would end it).
      await holdsRow.query(share, [scope]);
      const rowWait = wrote.query(rowOfA, [scope]);
      await holdsRow.query('COMMIT');
      await rowWait;
      await wrote.query('COMMIT');
      expect((await policy).status).toBe(200);
      expect(await countsOf(scope)).toEqual({ user_streams: 1, active_segments: 1 });
    } finally {
      await Promise.all([wrote.end(), holdsRow.end()]);
    }
  });

  it('counts each scale of a batch of reports from where the one before left the counts', async () => {
    const scope = await createScope(t.http, 'batch');
    await t.http.put(`/v1/scopes/${scope}/policy`).send({ maxActiveSegments: 5 }).expect(200);
    await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: 'hot', scalingPolicy: { ...RATE_POLICY, minSegments: 2 } })
      .expect(201);
    // Each split makes 3 of 1: the first leaves 4 active segments, the second would leave 6.
    const res = await t.http
      .post(`/v1/scopes/${scope}/streams/hot/load`)
      .send({ reports: [hotReport(0), hotReport(1)] })
      .expect(200);
    const results = (res.body as { results: { outcome: string; reason?: string }[] }).results;
    expect(results.map((r) => [r.outcome, r.reason])).toEqual([
      ['scaledUp', undefined],
      ['refused', 'POLICY_VIOLATION'],
    ]);
    expect(await countsOf(scope)).toEqual({ user_streams: 1, active_segments: 4 });
  });
});
