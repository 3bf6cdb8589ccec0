import { DataSource } from 'typeorm';
import { createScope, PROBLEM_HEADERS } from './support/factories';
import { coldReport, hotReport, RATE_POLICY } from './support/load-reports';
import { startTestApp, TestApp } from './support/test-app';

interface Scale {
  at: number;
  principal: string;
  segment: number;
  direction: string;
  because: string;
  epoch: number;
  sealedSegments: number[];
  newSegments: { number: number; keyStart: number; keyEnd: number }[];
}

/** A stream's recent scales by load (docs/extensions.md section 11), on real PostgreSQL. */
describe('Recent scales by load (e2e)', () => {
  let t: TestApp;
  let scope: string;

  beforeAll(async () => {
    // No mutes: a segment just opened may scale at once.
    t = await startTestApp({ AUTOSCALE_MUTE_MS: '0' });
    scope = await createScope(t.http, 'scales');
  });
  afterAll(() => t.close());

  const streamPath = (name: string) => `/v1/scopes/${scope}/streams/${name}`;
  const createStream = (name: string, scalingPolicy: object) =>
    t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: name, scalingPolicy })
      .expect(201);
  const report = (name: string, reports: object[]) =>
    t.http
      .post(`${streamPath(name)}/load`)
      .send({ reports })
      .expect(200);
  const scales = async (name: string, query = ''): Promise<Scale[]> =>
    ((await t.http.get(`${streamPath(name)}/load${query}`).expect(200)).body as { scales: Scale[] })
      .scales;

  it('lists the scales the reports made, newest first, with the rule in words', async () => {
    await createStream('orders', { ...RATE_POLICY, minSegments: 1 });
    expect(await scales('orders')).toEqual([]);
    const before = Date.now();
    await report('orders', [hotReport(0)]);
    await report('orders', [coldReport(1), coldReport(2)]);
    // Reports that scale nothing leave nothing to list.
    await report('orders', [coldReport(3)]);

    const listed = await scales('orders');
    expect(listed).toEqual([
      {
        at: expect.any(Number),
        principal: 'anonymous',
        segment: 2,
        direction: 'down',
        because: expect.stringContaining('merge') as string,
        epoch: 2,
        sealedSegments: [1, 2],
        newSegments: [expect.objectContaining({ number: 4, keyStart: 0, keyEnd: 2 / 3 })],
      },
      {
        at: expect.any(Number),
        principal: 'anonymous',
        segment: 0,
        direction: 'up',
        because: 'two-minute rate 620.5 > 5 x 100: split into 3',
        epoch: 1,
        sealedSegments: [0],
        newSegments: [
          expect.objectContaining({ number: 1, keyStart: 0, keyEnd: 1 / 3 }),
          expect.objectContaining({ number: 2, keyStart: 1 / 3, keyEnd: 2 / 3 }),
          expect.objectContaining({ number: 3, keyStart: 2 / 3, keyEnd: 1 }),
        ],
      },
    ]);
    expect(listed[1].at).toBeGreaterThanOrEqual(before - 1000);
    expect(listed[0].at).toBeGreaterThanOrEqual(listed[1].at);

    expect((await scales('orders', '?limit=1')).map((s) => s.epoch)).toEqual([2]);
  });

  it('lists nothing of a stream that reports never scaled, nor of a deleted one of its name', async () => {
    await createStream('fixed', { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 });
    await report('fixed', [hotReport(0)]);
    expect(await scales('fixed')).toEqual([]);

    await createStream('again', { ...RATE_POLICY, minSegments: 1 });
    await report('again', [hotReport(0)]);
    expect(await scales('again')).toHaveLength(1);
    await t.http
      .put(`${streamPath('again')}/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    await t.http.delete(streamPath('again')).expect(204);
    await createStream('again', { ...RATE_POLICY, minSegments: 1 });
    expect(await scales('again')).toEqual([]);
  });

  it('reads along an index of scales by load alone, however many audit rows there are', async () => {
    await createStream('busy', { ...RATE_POLICY, minSegments: 1 });
    // Many rows: of this stream's other changes, and of other streams' scales.
    await t.sql(
      `INSERT INTO audit_events (principal, operation, resource, outcome, after)
       SELECT 'u', CASE WHEN g % 2 = 0 THEN 'updateStream' ELSE 'reportLoad' END,
              CASE WHEN g % 2 = 0 THEN $1 ELSE $1 || (g % 50) END, 'SUCCEEDED', '{}'::jsonb
         FROM generate_series(1, 50000) g`,
      [`prn::/scope:${scope}/stream:busy`],
    );
    await t.sql('ANALYZE audit_events');
    const logger = t.app.get(DataSource).logger;
    const logQuery = logger.logQuery.bind(logger);
    const statements: { sql: string; parameters?: unknown[] }[] = [];
    logger.logQuery = (sql, parameters, runner) => {
      if (sql.includes('audit_events'))
        statements.push({ sql, parameters: parameters as unknown[] });
      logQuery(sql, parameters, runner);
    };
    try {
      await scales('busy');
    } finally {
      logger.logQuery = logQuery;
    }
    expect(statements).toHaveLength(1);
    const plan = await t.sql<{ 'QUERY PLAN': string }>(
      `EXPLAIN ${statements[0].sql}`,
      statements[0].parameters,
    );
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain(
      'audit_events_load_scales_idx',
    );
  });

  it('refuses a bad limit or an unknown parameter with a 400, a missing scope or stream with a 404', async () => {
    await createStream('strict', { ...RATE_POLICY, minSegments: 1 });
    for (const query of ['?limit=0', '?limit=101', '?limit=ten', '?limit=1.5', '?limits=3']) {
      const res = await t.http.get(`${streamPath('strict')}/load${query}`).set(PROBLEM_HEADERS);
      expect([query, res.status]).toEqual([query, 400]);
    }
    await t.http.get(`${streamPath('strict')}/load?limit=100`).expect(200);
    const noStream = await t.http
      .get(`${streamPath('nowhere')}/load`)
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect((noStream.body as { code: string }).code).toBe('STREAM_NOT_FOUND');
    const noScope = await t.http
      .get('/v1/scopes/no-such-scope/streams/s/load')
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect((noScope.body as { code: string }).code).toBe('SCOPE_NOT_FOUND');
  });
});
