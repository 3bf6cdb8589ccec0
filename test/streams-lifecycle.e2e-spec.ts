import { createScope, PROBLEM_HEADERS, uniqueName } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('Update, seal and delete streams (e2e)', () => {
  let t: TestApp;
  let scope: string;

  beforeAll(async () => {
    t = await startTestApp();
    scope = await createScope(t.http);
  });
  afterAll(() => t.close());

  const path = (stream: string) => `/v1/scopes/${scope}/streams/${stream}`;
  const create = (body: object) =>
    t.http.post(`/v1/scopes/${scope}/streams`).send(body).expect(201);
  const seal = (stream: string) =>
    t.http.put(`${path(stream)}/state`).send({ streamState: 'SEALED' });

  describe('PUT (update)', () => {
    it('replaces the whole configuration', async () => {
      await create({
        streamName: 'upd',
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
        retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 10 },
        streamTags: ['a', 'b'],
        rolloverSizeBytes: 100,
        timestampAggregationTimeout: 200,
      });
      const update = {
        scalingPolicy: {
          type: 'BY_RATE_IN_EVENTS_PER_SEC',
          targetRate: 50,
          scaleFactor: 3,
          minSegments: 2,
        },
        retentionPolicy: { type: 'LIMITED_DAYS', value: 3, maxValue: 9 },
        streamTags: ['c', 'c', 'd'],
        rolloverSizeBytes: 300,
        timestampAggregationTimeout: 400,
      };
      const expected = {
        scopeName: scope,
        streamName: 'upd',
        scalingPolicy: update.scalingPolicy,
        retentionPolicy: {
          type: 'LIMITED_DAYS',
          value: 3,
          timeBasedRetention: { days: 3, hours: 0, minutes: 0 },
          maxValue: 9,
          maxTimeBasedRetention: { days: 9, hours: 0, minutes: 0 },
        },
        tags: ['c', 'd'],
        rolloverSizeBytes: 300,
        timestampAggregationTimeout: 400,
      };
      await t.http.put(path('upd')).send(update).expect(200, expected);
      await t.http.get(path('upd')).expect(200, expected);
    });

    it('clears retention, tags and numbers that the request omits', async () => {
      await create({
        streamName: 'clear',
        retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 10, maxValue: 20 },
        streamTags: ['x'],
        rolloverSizeBytes: 100,
        timestampAggregationTimeout: 200,
      });
      const scalingPolicy = { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 };
      const res = await t.http.put(path('clear')).send({ scalingPolicy }).expect(200);
      const expected = {
        scopeName: scope,
        streamName: 'clear',
        scalingPolicy,
        tags: [],
        rolloverSizeBytes: 0,
        timestampAggregationTimeout: 0,
      };
      expect(res.body).toEqual(expected);
      await t.http.get(path('clear')).expect(200, expected);
    });

    it('keeps the retention maximum the request gives', async () => {
      await create({ streamName: 'keep-max' });
      const res = await t.http
        .put(path('keep-max'))
        .send({
          scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
          retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 1, maxValue: 2 },
        })
        .expect(200);
      expect(res.body.retentionPolicy).toEqual({ type: 'LIMITED_SIZE_MB', value: 1, maxValue: 2 });
    });

    it('requires scalingPolicy (400), changing nothing', async () => {
      await create({ streamName: 'needs-policy', streamTags: ['kept'] });
      const res = await t.http
        .put(path('needs-policy'))
        .send({ streamTags: ['new'] })
        .expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('scalingPolicy');
      const got = await t.http.get(path('needs-policy')).expect(200);
      expect(got.body.tags).toEqual(['kept']);
    });

    it.each([
      ['an unknown enum value', { scalingPolicy: { type: 'NOPE', minSegments: 1 } }],
      [
        'a negative rollover',
        { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 }, rolloverSizeBytes: -1 },
      ],
      [
        '129 tags',
        {
          scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
          streamTags: Array.from({ length: 129 }, (_, i) => `t${i}`),
        },
      ],
      ['a body that is not an object', [1, 2]],
    ])('rejects %s with 400', async (_, body) => {
      const name = uniqueName('bad-update');
      await create({ streamName: name });
      await t.http.put(path(name)).send(body).expect(400);
    });

    it('refuses to update a sealed stream (412), changing nothing', async () => {
      await create({ streamName: 'sealed-upd', streamTags: ['before'] });
      await seal('sealed-upd').expect(200);
      const update = {
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 },
        streamTags: ['after'],
      };
      const plain = await t.http.put(path('sealed-upd')).send(update).expect(412);
      expect(plain.text).toBe('');
      const problem = await t.http
        .put(path('sealed-upd'))
        .set(PROBLEM_HEADERS)
        .send(update)
        .expect(412);
      expect(problem.body).toMatchObject({ status: 412, code: 'STREAM_SEALED' });
      const got = await t.http.get(path('sealed-upd')).expect(200);
      expect(got.body.tags).toEqual(['before']);
      expect(got.body.scalingPolicy.minSegments).toBe(1);
    });

    it('answers 404 for a missing stream or scope', async () => {
      const body = { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 } };
      await t.http.put(path('missing')).send(body).expect(404);
      await t.http.put('/v1/scopes/no-scope/streams/x').send(body).expect(404);
    });

    it('refuses to update an internal stream directly (412)', async () => {
      await create({ streamName: 'owner' });
      const res = await t.http
        .put(path('_MARKowner'))
        .set(PROBLEM_HEADERS)
        .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 3 } })
        .expect(412);
      expect(res.body.code).toBe('STREAM_INTERNAL');
    });
  });

  describe('PUT state (seal)', () => {
    it('seals a stream and echoes the state; sealing again is also 200', async () => {
      await create({ streamName: 'to-seal' });
      await seal('to-seal').expect(200, { streamState: 'SEALED' });
      await seal('to-seal').expect(200, { streamState: 'SEALED' });
      const rows = await t.sql<{ name: string; state: string }>(
        'SELECT name, state FROM streams WHERE scope_name = $1 AND name IN ($2, $3) ORDER BY name',
        [scope, 'to-seal', '_MARKto-seal'],
      );
      expect(rows).toEqual([
        { name: '_MARKto-seal', state: 'SEALED' },
        { name: 'to-seal', state: 'SEALED' },
      ]);
    });

    it.each([
      ['another state', { streamState: 'ACTIVE' }],
      ['a lowercase state', { streamState: 'sealed' }],
      ['an empty body', {}],
      ['a number', { streamState: 1 }],
    ])('rejects %s with 400', async (_, body) => {
      const name = uniqueName('state-bad');
      await create({ streamName: name });
      const res = await t.http
        .put(`${path(name)}/state`)
        .send(body)
        .expect(400);
      expect(res.body.errors[0].field).toBe('streamState');
    });

    it('rejects a request without any body with 400', async () => {
      await t.http.put(`${path('state-bad')}/state`).expect(400);
    });

    it('answers 404 for a missing stream or scope', async () => {
      await seal('missing').expect(404);
      await t.http
        .put('/v1/scopes/no-scope/streams/x/state')
        .send({ streamState: 'SEALED' })
        .expect(404);
    });
  });

  describe('DELETE', () => {
    it('refuses to delete an unsealed stream (412), keeping it', async () => {
      await create({ streamName: 'active' });
      const plain = await t.http.delete(path('active')).expect(412);
      expect(plain.text).toBe('');
      const problem = await t.http.delete(path('active')).set(PROBLEM_HEADERS).expect(412);
      expect(problem.body).toMatchObject({ status: 412, code: 'STREAM_NOT_SEALED' });
      await t.http.get(path('active')).expect(200);
      await t.http.get(path('_MARKactive')).expect(200);
    });

    it('deletes a sealed stream with its companion', async () => {
      await create({ streamName: 'gone' });
      await seal('gone').expect(200);
      const res = await t.http.delete(path('gone')).expect(204);
      expect(res.text).toBe('');
      await t.http.get(path('gone')).expect(404);
      await t.http.get(path('_MARKgone')).expect(404);
      await t.http.delete(path('gone')).expect(404);
    });

    it('lets a deleted stream be created again', async () => {
      await create({ streamName: 'again', streamTags: ['one'] });
      await seal('again').expect(200);
      await t.http.delete(path('again')).expect(204);
      const res = await create({ streamName: 'again' });
      expect(res.body.tags).toEqual([]);
    });

    it('refuses to delete an internal stream directly (412)', async () => {
      await create({ streamName: 'keeper' });
      await seal('keeper').expect(200);
      await t.http.delete(path('_MARKkeeper')).expect(412);
      await t.http.get(path('_MARKkeeper')).expect(200);
    });

    it('answers 404 for a missing stream or scope', async () => {
      await t.http.delete(path('missing')).expect(404);
      await t.http.delete('/v1/scopes/no-scope/streams/x').expect(404);
    });
  });
});
