import { createScope, PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('Reader groups (e2e)', () => {
  let t: TestApp;
  let scope: string;
  let other: string;

  const groups = (s = scope) => `/v1/scopes/${s}/readergroups`;
  const createGroup = (readerGroupName: string, streams: unknown, s = scope) =>
    t.http.post(groups(s)).send({ readerGroupName, streams });
  const streamNames = async (query = '') =>
    (await t.http.get(`/v1/scopes/${scope}/streams${query}`).expect(200)).body.streams.map(
      (x: { streamName: string }) => x.streamName,
    ) as string[];

  beforeAll(async () => {
    t = await startTestApp();
    scope = await createScope(t.http, 'rg');
    other = await createScope(t.http, 'rg-other');
    for (const [s, streamName] of [
      [scope, 'orders'],
      [scope, 'payments'],
      [other, 'refunds'],
    ]) {
      await t.http.post(`/v1/scopes/${s}/streams`).send({ streamName }).expect(201);
    }
  });
  afterAll(() => t.close());

  it('lists no groups as an empty array', async () => {
    const empty = await createScope(t.http, 'rg-empty');
    await t.http.get(groups(empty)).expect(200, { readerGroups: [] });
  });

  it('creates a group reading streams of its scope and of another', async () => {
    const res = await createGroup('billing', [
      'orders',
      `${other}/refunds`,
      `${scope}/orders`,
    ]).expect(201);
    const expected = {
      scopeName: scope,
      readerGroupName: 'billing',
      streamList: [`${scope}/orders`, `${other}/refunds`],
      onlineReaderIds: [],
    };
    expect(res.body).toEqual(expected);
    await t.http.get(`${groups()}/billing`).expect(200, expected);
    const list = await t.http.get(groups()).expect(200);
    expect(list.body.readerGroups).toContainEqual({ readerGroupName: 'billing' });
  });

  it('creates the internal _RG stream and its companion, shown only with showInternalStreams', async () => {
    await createGroup('visible', ['orders']).expect(201);
    expect(await streamNames()).not.toContain('_RGvisible');
    const internal = await streamNames('?filter_type=showInternalStreams&filter_value=true');
    expect(internal).toEqual(expect.arrayContaining(['_RGvisible', '_MARK_RGvisible']));
    const rg = await t.http.get(`/v1/scopes/${scope}/streams/_RGvisible`).expect(200);
    expect(rg.body).toMatchObject({
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
      rolloverSizeBytes: 4194304,
    });
  });

  it('answers 409 for an existing group, leaving it unchanged', async () => {
    await createGroup('twice', ['orders']).expect(201);
    const plain = await createGroup('twice', ['payments']).expect(409);
    expect(plain.text).toBe('');
    const problem = await t.http
      .post(groups())
      .set(PROBLEM_HEADERS)
      .send({ readerGroupName: 'twice', streams: ['payments'] })
      .expect(409);
    expect(problem.body.code).toBe('READER_GROUP_EXISTS');
    const got = await t.http.get(`${groups()}/twice`).expect(200);
    expect(got.body.streamList).toEqual([`${scope}/orders`]);
  });

  it('answers 404 for a missing stream or scope, writing nothing', async () => {
    const missingStream = await t.http
      .post(groups())
      .set(PROBLEM_HEADERS)
      .send({ readerGroupName: 'ghost', streams: ['orders', 'nope'] })
      .expect(404);
    expect(missingStream.body.code).toBe('STREAM_NOT_FOUND');
    await t.http.get(`${groups()}/ghost`).expect(404);
    expect(await streamNames('?showInternalStreams=true')).not.toContain('_RGghost');

    const missingScope = await t.http
      .post(groups('no-scope'))
      .set(PROBLEM_HEADERS)
      .send({ readerGroupName: 'g', streams: ['orders'] })
      .expect(404);
    expect(missingScope.body.code).toBe('SCOPE_NOT_FOUND');
  });

  it.each([
    ['a reserved name', { readerGroupName: '_g', streams: ['orders'] }, 'readerGroupName'],
    [
      'a 251-character name',
      { readerGroupName: 'g'.repeat(251), streams: ['orders'] },
      'readerGroupName',
    ],
    ['no streams', { readerGroupName: 'g', streams: [] }, 'streams'],
    ['streams that are not a list', { readerGroupName: 'g', streams: 'orders' }, 'streams'],
    ['a stream that is not a string', { readerGroupName: 'g', streams: [1] }, 'streams'],
    ['a malformed stream name', { readerGroupName: 'g', streams: ['a/b/c'] }, 'streams[0]'],
    ['a missing name', { streams: ['orders'] }, 'readerGroupName'],
  ])('rejects %s with 400', async (_, body, field) => {
    const res = await t.http.post(groups()).send(body).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('accepts a group name of 250 characters', async () => {
    const name = 'r'.repeat(250);
    await createGroup(name, ['orders']).expect(201);
    await t.http.get(`${groups()}/${name}`).expect(200);
    await t.http.get(`/v1/scopes/${scope}/streams/_MARK_RG${name}`).expect(200);
  });

  it('brings readers online and offline', async () => {
    await createGroup('readers', ['orders']).expect(201);
    const reader = (id: string) => `${groups()}/readers/readers/${id}`;
    await t.http.put(reader('r2')).expect(204);
    await t.http.put(reader('r1')).expect(204);
    await t.http.put(reader('r1')).expect(204);
    let got = await t.http.get(`${groups()}/readers`).expect(200);
    expect(got.body.onlineReaderIds).toEqual(['r1', 'r2']);

    await t.http.delete(reader('r1')).expect(204);
    got = await t.http.get(`${groups()}/readers`).expect(200);
    expect(got.body.onlineReaderIds).toEqual(['r2']);

    const notOnline = await t.http.delete(reader('r1')).set(PROBLEM_HEADERS).expect(404);
    expect(notOnline.body.code).toBe('READER_NOT_ONLINE');
    await t.http.put(reader('_bad')).expect(400);
    await t.http.put(`${groups()}/nope/readers/r1`).expect(404);
    await t.http.delete(`${groups()}/nope/readers/r1`).expect(404);
  });

  it('answers 404 for a missing group or scope on get and delete', async () => {
    const group = await t.http.get(`${groups()}/nope`).set(PROBLEM_HEADERS).expect(404);
    expect(group.body.code).toBe('READER_GROUP_NOT_FOUND');
    const scopeMissing = await t.http
      .get(`${groups('no-scope')}/nope`)
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect(scopeMissing.body.code).toBe('SCOPE_NOT_FOUND');
    await t.http.get(groups('no-scope')).expect(404);
    await t.http.delete(`${groups()}/nope`).expect(404);
  });

  it('deletes a group with its internal streams, history and readers', async () => {
    await createGroup('doomed', ['orders']).expect(201);
    await t.http.put(`${groups()}/doomed/readers/r1`).expect(204);
    await t.http.delete(`${groups()}/doomed`).expect(204);
    await t.http.get(`${groups()}/doomed`).expect(404);
    const leftovers = await t.sql(
      `SELECT 'stream' FROM streams WHERE scope_name = $1 AND name LIKE '%RGdoomed'
       UNION ALL SELECT 'epoch' FROM stream_epochs WHERE scope_name = $1 AND stream_name LIKE '%RGdoomed'
       UNION ALL SELECT 'reader' FROM reader_group_readers WHERE scope_name = $1 AND reader_group = 'doomed'`,
      [scope],
    );
    expect(leftovers).toEqual([]);
  });

  it('refuses to touch a group stream directly (412)', async () => {
    await createGroup('guarded', ['orders']).expect(201);
    await t.http
      .put(`/v1/scopes/${scope}/streams/_RGguarded/state`)
      .send({ streamState: 'SEALED' })
      .expect(412);
    await t.http.delete(`/v1/scopes/${scope}/streams/_RGguarded`).expect(412);
  });

  it('drops a deleted stream from the groups that read it', async () => {
    await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: 'temporary' }).expect(201);
    await createGroup('watcher', ['temporary', 'payments']).expect(201);
    await t.http
      .put(`/v1/scopes/${scope}/streams/temporary/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    await t.http.delete(`/v1/scopes/${scope}/streams/temporary`).expect(204);
    const got = await t.http.get(`${groups()}/watcher`).expect(200);
    expect(got.body.streamList).toEqual([`${scope}/payments`]);
  });

  it('refuses to delete a scope while it holds a group (412), then allows it', async () => {
    const lonely = await createScope(t.http, 'rg-lonely');
    await createGroup('only', [`${other}/refunds`], lonely).expect(201);
    const res = await t.http.delete(`/v1/scopes/${lonely}`).set(PROBLEM_HEADERS).expect(412);
    expect(res.body.code).toBe('SCOPE_NOT_EMPTY');
    await t.http.delete(`${groups(lonely)}/only`).expect(204);
    await t.http.delete(`/v1/scopes/${lonely}`).expect(204);
  });
});
