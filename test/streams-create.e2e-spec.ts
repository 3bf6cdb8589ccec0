import { createScope, PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('Create and get streams (e2e)', () => {
  let t: TestApp;
  let scope: string;

  beforeAll(async () => {
    t = await startTestApp();
    scope = await createScope(t.http);
  });
  afterAll(() => t.close());

  const create = (body: object) => t.http.post(`/v1/scopes/${scope}/streams`).send(body);
  const fieldsOf = (res: { body: { errors?: { field: string }[] } }) =>
    (res.body.errors ?? []).map((e) => e.field);

  it('applies the defaults: one fixed segment, no retention, no tags, zero numbers', async () => {
    const res = await create({ streamName: 'defaults' }).expect(201);
    expect(res.body).toEqual({
      scopeName: scope,
      streamName: 'defaults',
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
      tags: [],
      rolloverSizeBytes: 0,
      timestampAggregationTimeout: 0,
    });
    await t.http.get(`/v1/scopes/${scope}/streams/defaults`).expect(200, res.body);
  });

  it('stores and returns every field of a full request', async () => {
    const body = {
      streamName: 'full',
      scalingPolicy: {
        type: 'BY_RATE_IN_KBYTES_PER_SEC',
        targetRate: 1024,
        scaleFactor: 2,
        minSegments: 3,
      },
      retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 100, maxValue: 500 },
      streamTags: ['red', 'blue', 'red'],
      rolloverSizeBytes: 4194304,
      timestampAggregationTimeout: 1500,
    };
    const created = await create(body).expect(201);
    const expected = {
      scopeName: scope,
      streamName: 'full',
      scalingPolicy: body.scalingPolicy,
      retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 100, maxValue: 500 },
      tags: ['red', 'blue'],
      rolloverSizeBytes: 4194304,
      timestampAggregationTimeout: 1500,
    };
    expect(created.body).toEqual(expected);
    await t.http.get(`/v1/scopes/${scope}/streams/full`).expect(200, expected);
  });

  it('drops targetRate and scaleFactor of a fixed policy', async () => {
    const res = await create({
      streamName: 'fixed-extra',
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2, targetRate: 5, scaleFactor: 3 },
    }).expect(201);
    expect(res.body.scalingPolicy).toEqual({ type: 'FIXED_NUM_SEGMENTS', minSegments: 2 });
  });

  it('renders whole-day retention as days, and other times as days, hours and minutes', async () => {
    const days = await create({
      streamName: 'ret-days',
      retentionPolicy: { type: 'LIMITED_DAYS', value: 7, maxValue: 30 },
    }).expect(201);
    expect(days.body.retentionPolicy).toEqual({
      type: 'LIMITED_DAYS',
      value: 7,
      timeBasedRetention: { days: 7, hours: 0, minutes: 0 },
      maxValue: 30,
      maxTimeBasedRetention: { days: 30, hours: 0, minutes: 0 },
    });

    const mixed = await create({
      streamName: 'ret-mixed',
      retentionPolicy: {
        type: 'LIMITED_DAYS',
        value: 0,
        timeBasedRetention: { days: 1, hours: 2, minutes: 3 },
        maxTimeBasedRetention: { days: 2, hours: 0, minutes: 30 },
      },
    }).expect(201);
    const expected = {
      type: 'LIMITED_DAYS',
      value: 0,
      timeBasedRetention: { days: 1, hours: 2, minutes: 3 },
      maxValue: 0,
      maxTimeBasedRetention: { days: 2, hours: 0, minutes: 30 },
    };
    expect(mixed.body.retentionPolicy).toEqual(expected);
    const got = await t.http.get(`/v1/scopes/${scope}/streams/ret-mixed`).expect(200);
    expect(got.body.retentionPolicy).toEqual(expected);
  });

  it('omits retentionPolicy when there is none', async () => {
    const res = await create({ streamName: 'no-ret', retentionPolicy: null }).expect(201);
    expect(res.body).not.toHaveProperty('retentionPolicy');
  });

  it('creates the internal _MARK companion with the stream', async () => {
    await create({ streamName: 'with-mark' }).expect(201);
    const mark = await t.http.get(`/v1/scopes/${scope}/streams/_MARKwith-mark`).expect(200);
    expect(mark.body).toMatchObject({
      streamName: '_MARKwith-mark',
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
      tags: [],
    });
    expect(mark.body).not.toHaveProperty('retentionPolicy');
  });

  it('accepts a 250-character name and rejects 251', async () => {
    const name = 's'.repeat(250);
    await create({ streamName: name }).expect(201);
    await t.http.get(`/v1/scopes/${scope}/streams/${name}`).expect(200);
    await t.http.get(`/v1/scopes/${scope}/streams/_MARK${name}`).expect(200);
    const res = await create({ streamName: 't'.repeat(251) }).expect(400);
    expect(fieldsOf(res)).toEqual(['streamName']);
  });

  it.each(['_reserved', '_MARKx', 'a b', 'a/b', 'a_b', 'ü', ''])(
    'rejects the stream name %j',
    async (streamName) => {
      const res = await create({ streamName }).expect(400);
      expect(fieldsOf(res)).toEqual(['streamName']);
    },
  );

  it('accepts 128 tags and a 256-character tag', async () => {
    const tags = Array.from({ length: 127 }, (_, i) => `t${i}`).concat('x'.repeat(256));
    const res = await create({ streamName: 'many-tags', streamTags: tags }).expect(201);
    expect(res.body.tags).toEqual(tags);
  });

  it('rejects 129 tags and a 257-character tag, naming the field', async () => {
    const tooMany = Array.from({ length: 129 }, (_, i) => `t${i}`);
    const res = await create({ streamName: 'too-many-tags', streamTags: tooMany }).expect(400);
    expect(fieldsOf(res)).toEqual(['streamTags']);
    const long = await create({
      streamName: 'long-tag',
      streamTags: ['ok', 'y'.repeat(257)],
    }).expect(400);
    expect(fieldsOf(long)).toEqual(['streamTags[1]']);
    await t.http.get(`/v1/scopes/${scope}/streams/too-many-tags`).expect(404);
    await t.http.get(`/v1/scopes/${scope}/streams/long-tag`).expect(404);
  });

  it.each([
    ['a negative rollover', { rolloverSizeBytes: -1 }, ['rolloverSizeBytes']],
    [
      'a negative aggregation timeout',
      { timestampAggregationTimeout: -5 },
      ['timestampAggregationTimeout'],
    ],
    ['a string rollover', { rolloverSizeBytes: '10' }, ['rolloverSizeBytes']],
    ['a fractional rollover', { rolloverSizeBytes: 1.5 }, ['rolloverSizeBytes']],
    ['a rollover beyond 2^53-1', { rolloverSizeBytes: 2 ** 53 }, ['rolloverSizeBytes']],
    [
      'an unknown scaling type',
      { scalingPolicy: { type: 'BY_MOOD' } },
      ['scalingPolicy.type', 'scalingPolicy.minSegments'],
    ],
    [
      'a scaling policy without type',
      { scalingPolicy: { minSegments: 1 } },
      ['scalingPolicy.type'],
    ],
    ['a scaling policy that is a string', { scalingPolicy: 'fixed' }, ['scalingPolicy']],
    ['a scaling policy that is an array', { scalingPolicy: [] }, ['scalingPolicy']],
    [
      'zero segments',
      { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 0 } },
      ['scalingPolicy.minSegments'],
    ],
    [
      'a fixed policy without minSegments',
      { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS' } },
      ['scalingPolicy.minSegments'],
    ],
    [
      'minSegments beyond int32',
      { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2147483648 } },
      ['scalingPolicy.minSegments'],
    ],
    [
      'a rate policy without rate and factor',
      { scalingPolicy: { type: 'BY_RATE_IN_EVENTS_PER_SEC', minSegments: 1 } },
      ['scalingPolicy.targetRate', 'scalingPolicy.scaleFactor'],
    ],
    [
      'a rate policy with a zero rate',
      {
        scalingPolicy: {
          type: 'BY_RATE_IN_EVENTS_PER_SEC',
          targetRate: 0,
          scaleFactor: 2,
          minSegments: 1,
        },
      },
      ['scalingPolicy.targetRate'],
    ],
    [
      'an unknown retention type',
      { retentionPolicy: { type: 'LIMITED_FOREVER', value: 1 } },
      ['retentionPolicy.type'],
    ],
    [
      'a negative size',
      { retentionPolicy: { type: 'LIMITED_SIZE_MB', value: -1 } },
      ['retentionPolicy.value'],
    ],
    [
      'a size without value',
      { retentionPolicy: { type: 'LIMITED_SIZE_MB' } },
      ['retentionPolicy.value'],
    ],
    [
      'negative hours',
      {
        retentionPolicy: {
          type: 'LIMITED_DAYS',
          timeBasedRetention: { days: 1, hours: -1, minutes: 0 },
        },
      },
      ['retentionPolicy.timeBasedRetention.hours'],
    ],
    [
      'a maximum below the minimum',
      { retentionPolicy: { type: 'LIMITED_DAYS', value: 5, maxValue: 2 } },
      ['retentionPolicy.maxValue'],
    ],
    [
      'days beyond 2^53-1',
      { retentionPolicy: { type: 'LIMITED_DAYS', value: 2 ** 53 } },
      ['retentionPolicy.value'],
    ],
    ['tags that are not an array', { streamTags: 'red' }, ['streamTags']],
    ['a tag that is not a string', { streamTags: ['red', 7] }, ['streamTags']],
  ])('rejects %s with 400 naming the field, writing nothing', async (_, extra, fields) => {
    const streamName = 'rejected';
    const res = await create({ streamName, ...extra }).expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    // A wrong type breaks several shape rules of its field (integer, range): one field still.
    expect([...new Set(fieldsOf(res))].sort()).toEqual([...fields].sort());
    await t.http.get(`/v1/scopes/${scope}/streams/${streamName}`).expect(404);
  });

  it('names every invalid field of one request', async () => {
    const res = await create({
      streamName: '_bad',
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 0 },
      rolloverSizeBytes: -1,
    }).expect(400);
    expect(fieldsOf(res).sort()).toEqual([
      'rolloverSizeBytes',
      'scalingPolicy.minSegments',
      'streamName',
    ]);
  });

  it('names the broken rules of every field, even when another field has the wrong type', async () => {
    const res = await create({
      streamName: 'typed',
      scalingPolicy: { type: 'BY_RATE_IN_EVENTS_PER_SEC', targetRate: 'fast', minSegments: 0 },
      retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 10, maxValue: 5 },
      streamTags: ['ok', ''],
    }).expect(400);
    // A wrong type breaks several shape rules of its field (integer, range): one field still.
    expect([...new Set(fieldsOf(res))].sort()).toEqual([
      'retentionPolicy.maxValue',
      'scalingPolicy.minSegments',
      'scalingPolicy.scaleFactor',
      'scalingPolicy.targetRate',
      'streamTags[1]',
    ]);
    const put = await t.http
      .put(`/v1/scopes/${scope}/streams/typed`)
      .send({
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 0 },
        rolloverSizeBytes: 'x',
      })
      .expect(400);
    expect([...new Set(fieldsOf(put))].sort()).toEqual([
      'rolloverSizeBytes',
      'scalingPolicy.minSegments',
    ]);
  });

  // PUT requires a scaling policy: this one stands in where a case has none.
  const ONE_FIXED_SEGMENT = { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 } };

  it.each([
    [
      'a rate policy missing its settings beside a string tag list',
      'mixed-rate',
      { scalingPolicy: { type: 'BY_RATE_IN_KBYTES_PER_SEC', minSegments: 1 }, streamTags: 'red' },
      ['scalingPolicy.scaleFactor', 'scalingPolicy.targetRate', 'streamTags'],
    ],
    [
      'a maximum below the minimum beside a fractional minSegments',
      'mixed-max',
      {
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1.5 },
        retentionPolicy: { type: 'LIMITED_DAYS', value: 3, maxTimeBasedRetention: { hours: 1 } },
      },
      ['retentionPolicy.maxTimeBasedRetention', 'scalingPolicy.minSegments'],
    ],
    [
      'negative time parts and a bad tag beside a string rollover and days',
      'mixed-parts',
      {
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 0 },
        retentionPolicy: { type: 'LIMITED_DAYS', timeBasedRetention: { hours: -1, days: 'x' } },
        rolloverSizeBytes: '1',
        streamTags: ['x'.repeat(257), 'ok'],
      },
      [
        'retentionPolicy.timeBasedRetention.days',
        'retentionPolicy.timeBasedRetention.hours',
        'rolloverSizeBytes',
        'scalingPolicy.minSegments',
        'streamTags[0]',
      ],
    ],
  ])(
    'names a type error and the broken rules together on create and on update: %s',
    async (_, name, body, fields) => {
      await create({ streamName: name }).expect(201);
      const created = await create({ streamName: `${name}-new`, ...body }).expect(400);
      expect([...new Set(fieldsOf(created))].sort()).toEqual(fields);
      const put = await t.http
        .put(`/v1/scopes/${scope}/streams/${name}`)
        .send({ ...ONE_FIXED_SEGMENT, ...body })
        .expect(400);
      expect([...new Set(fieldsOf(put))].sort()).toEqual(fields);
      await t.http.get(`/v1/scopes/${scope}/streams/${name}-new`).expect(404);
      const kept = await t.http.get(`/v1/scopes/${scope}/streams/${name}`).expect(200);
      expect(kept.body.scalingPolicy).toEqual({ type: 'FIXED_NUM_SEGMENTS', minSegments: 1 });
      expect(kept.body.tags).toEqual([]);
    },
  );

  it('answers 409 for an existing stream, leaving it unchanged', async () => {
    await create({ streamName: 'dup', streamTags: ['first'] }).expect(201);
    const plain = await create({ streamName: 'dup', streamTags: ['second'] }).expect(409);
    expect(plain.text).toBe('');
    const problem = await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .set(PROBLEM_HEADERS)
      .send({ streamName: 'dup' })
      .expect(409);
    expect(problem.body).toMatchObject({ code: 'STREAM_EXISTS' });
    const got = await t.http.get(`/v1/scopes/${scope}/streams/dup`).expect(200);
    expect(got.body.tags).toEqual(['first']);
  });

  it('answers 404 when the scope is missing', async () => {
    const res = await t.http
      .post('/v1/scopes/no-such-scope/streams')
      .set(PROBLEM_HEADERS)
      .send({ streamName: 's' })
      .expect(404);
    expect(res.body).toMatchObject({ code: 'SCOPE_NOT_FOUND' });
  });

  it('answers 404 for a missing stream or scope on get, saying which', async () => {
    const stream = await t.http
      .get(`/v1/scopes/${scope}/streams/nope`)
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect(stream.body.code).toBe('STREAM_NOT_FOUND');
    const scopeMissing = await t.http
      .get('/v1/scopes/nope-scope/streams/nope')
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect(scopeMissing.body.code).toBe('SCOPE_NOT_FOUND');
    const plain = await t.http.get(`/v1/scopes/${scope}/streams/nope`).expect(404);
    expect(plain.text).toBe('');
  });

  it('writes nothing when the request is rejected (no stream, no companion)', async () => {
    await create({ streamName: 'ghost', streamTags: ['z'.repeat(300)] }).expect(400);
    const rows = await t.sql('SELECT name FROM streams WHERE scope_name = $1 AND name LIKE $2', [
      scope,
      '%ghost',
    ]);
    expect(rows).toEqual([]);
  });
});
