import { createScope, PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('List streams (e2e)', () => {
  let t: TestApp;
  let scope: string;

  const names = (res: { body: { streams: { streamName: string }[] } }) =>
    res.body.streams.map((s) => s.streamName);
  const list = (query = '') => t.http.get(`/v1/scopes/${scope}/streams${query}`);

  beforeAll(async () => {
    t = await startTestApp();
    scope = await createScope(t.http);
    for (const [streamName, streamTags] of [
      ['beta', ['blue', 'green']],
      ['alpha', ['blue']],
      ['gamma', []],
    ] as const) {
      await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName, streamTags }).expect(201);
    }
  });
  afterAll(() => t.close());

  it('lists user streams only, in name order, with full properties', async () => {
    const res = await list().expect(200);
    expect(names(res)).toEqual(['alpha', 'beta', 'gamma']);
    expect(res.body.streams[1]).toEqual({
      scopeName: scope,
      streamName: 'beta',
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
      tags: ['blue', 'green'],
      rolloverSizeBytes: 0,
      timestampAggregationTimeout: 0,
    });
  });

  it('lists an empty scope as an empty array', async () => {
    const empty = await createScope(t.http, 'empty');
    await t.http.get(`/v1/scopes/${empty}/streams`).expect(200, { streams: [] });
  });

  it('filters by tag', async () => {
    expect(names(await list('?filter_type=tag&filter_value=blue').expect(200))).toEqual([
      'alpha',
      'beta',
    ]);
    expect(names(await list('?filter_type=tag&filter_value=green').expect(200))).toEqual(['beta']);
    await list('?filter_type=tag&filter_value=purple').expect(200, { streams: [] });
  });

  it('lists only the internal streams with showInternalStreams=true', async () => {
    const res = await list('?filter_type=showInternalStreams&filter_value=true').expect(200);
    expect(names(res)).toEqual(['_MARKalpha', '_MARKbeta', '_MARKgamma']);
  });

  it.each(['', '&filter_value='])(
    'reads showInternalStreams with no or an empty value (%j) as true, _MARK names first',
    async (value) => {
      const own = await createScope(t.http, 'internal');
      await t.http.post(`/v1/scopes/${own}/streams`).send({ streamName: 'zeta' }).expect(201);
      await t.http
        .post(`/v1/scopes/${own}/readergroups`)
        .send({ readerGroupName: 'rg', streams: ['zeta'] })
        .expect(201);
      const res = await t.http
        .get(`/v1/scopes/${own}/streams?filter_type=showInternalStreams${value}`)
        .expect(200);
      expect(names(res)).toEqual(['_MARK_RGrg', '_MARKzeta', '_RGrg']);
    },
  );

  it('lists user streams with showInternalStreams=false', async () => {
    const res = await list('?filter_type=showInternalStreams&filter_value=false').expect(200);
    expect(names(res)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('reads the legacy showInternalStreams parameter', async () => {
    expect(names(await list('?showInternalStreams=true').expect(200))).toEqual([
      '_MARKalpha',
      '_MARKbeta',
      '_MARKgamma',
    ]);
    expect(names(await list('?showInternalStreams=false').expect(200))).toEqual([
      'alpha',
      'beta',
      'gamma',
    ]);
  });

  it('keeps sealed streams in the list until they are deleted', async () => {
    await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: 'delta' }).expect(201);
    await t.http
      .put(`/v1/scopes/${scope}/streams/delta/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    expect(names(await list().expect(200))).toContain('delta');
    await t.http.delete(`/v1/scopes/${scope}/streams/delta`).expect(204);
    expect(names(await list().expect(200))).not.toContain('delta');
    expect(names(await list('?showInternalStreams=true').expect(200))).not.toContain('_MARKdelta');
  });

  it.each([
    ['an unknown filter_type', '?filter_type=color&filter_value=blue', 'filter_type'],
    ['a tag filter without a value', '?filter_type=tag', 'filter_value'],
    ['a tag filter with an empty value', '?filter_type=tag&filter_value=', 'filter_value'],
    [
      'showInternalStreams=yes',
      '?filter_type=showInternalStreams&filter_value=yes',
      'filter_value',
    ],
    ['a legacy value that is not a boolean', '?showInternalStreams=1', 'showInternalStreams'],
    ['a value without a type', '?filter_value=blue', 'filter_type'],
    ['a repeated filter_type', '?filter_type=tag&filter_type=tag&filter_value=x', 'filter_type'],
  ])('rejects %s with 400 naming %s', async (_, query, field) => {
    const res = await list(query).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers 404 for a missing scope', async () => {
    const res = await t.http.get('/v1/scopes/no-scope/streams').set(PROBLEM_HEADERS).expect(404);
    expect(res.body.code).toBe('SCOPE_NOT_FOUND');
    await t.http.get('/v1/scopes/no-scope/streams?filter_type=tag&filter_value=x').expect(404);
  });
});
