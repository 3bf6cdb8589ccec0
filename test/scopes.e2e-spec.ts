import { PROBLEM_HEADERS, uniqueName } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('Scopes of a database that holds none (e2e)', () => {
  let t: TestApp;

  // A database of its own: the other tests' scopes stay out of it, whatever order they run in.
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists no scopes as an empty array', async () => {
    const res = await t.http.get('/v1/scopes').expect(200);
    expect(res.body).toEqual({ scopes: [] });
  });
});

describe('Scopes (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creates, gets, lists and deletes a scope', async () => {
    const name = uniqueName('scope');
    const created = await t.http.post('/v1/scopes').send({ scopeName: name }).expect(201);
    expect(created.body).toEqual({ scopeName: name });

    await t.http.get(`/v1/scopes/${name}`).expect(200, { scopeName: name });
    const list = await t.http.get('/v1/scopes').expect(200);
    expect(list.body.scopes).toContainEqual({ scopeName: name });

    const deleted = await t.http.delete(`/v1/scopes/${name}`).expect(204);
    expect(deleted.text).toBe('');
    await t.http.get(`/v1/scopes/${name}`).expect(404);
  });

  it('lists scopes in name order', async () => {
    const names = ['zeta-s', 'alpha-s', 'mid-s'];
    for (const scopeName of names) await t.http.post('/v1/scopes').send({ scopeName }).expect(201);
    const res = await t.http.get('/v1/scopes').expect(200);
    const listed = (res.body.scopes as { scopeName: string }[]).map((s) => s.scopeName);
    expect(listed.filter((n) => names.includes(n))).toEqual(['alpha-s', 'mid-s', 'zeta-s']);
  });

  it('answers 409 with no body for an existing scope, and a problem when asked', async () => {
    const name = uniqueName('dup');
    await t.http.post('/v1/scopes').send({ scopeName: name }).expect(201);
    const plain = await t.http.post('/v1/scopes').send({ scopeName: name }).expect(409);
    expect(plain.text).toBe('');
    expect(plain.headers['content-type']).toBeUndefined();

    const problem = await t.http
      .post('/v1/scopes')
      .set(PROBLEM_HEADERS)
      .send({ scopeName: name })
      .expect(409);
    expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(problem.body).toMatchObject({ status: 409, code: 'SCOPE_EXISTS', title: 'Conflict' });
  });

  it('accepts a 255-character name and rejects 256 with a problem naming the field', async () => {
    const ok = 'a'.repeat(250) + uniqueName('').slice(1, 6);
    expect(ok).toHaveLength(255);
    await t.http.post('/v1/scopes').send({ scopeName: ok }).expect(201);
    await t.http.get(`/v1/scopes/${ok}`).expect(200);

    const res = await t.http
      .post('/v1/scopes')
      .send({ scopeName: 'b'.repeat(256) })
      .expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    expect(res.body.errors).toEqual([
      { field: 'scopeName', message: expect.stringMatching(/255/) },
    ]);
  });

  it.each([
    ['a reserved name', { scopeName: '_system' }],
    ['an empty name', { scopeName: '' }],
    ['a name with a slash', { scopeName: 'a/b' }],
    ['a name with a space', { scopeName: 'a b' }],
    ['a non-ASCII name', { scopeName: 'été' }],
    ['a number', { scopeName: 42 }],
    ['null', { scopeName: null }],
    ['a missing name', {}],
  ])('rejects %s with 400 naming scopeName', async (_, body) => {
    const res = await t.http.post('/v1/scopes').send(body).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['scopeName']);
  });

  it('ignores unknown fields', async () => {
    const name = uniqueName('extra');
    await t.http.post('/v1/scopes').send({ scopeName: name, owner: 'x' }).expect(201, {
      scopeName: name,
    });
  });

  it('answers 404 for a missing scope, with no body unless a problem is asked for', async () => {
    const plain = await t.http.get('/v1/scopes/missing-scope').expect(404);
    expect(plain.text).toBe('');
    const problem = await t.http.get('/v1/scopes/missing-scope').set(PROBLEM_HEADERS).expect(404);
    expect(problem.body).toMatchObject({ status: 404, code: 'SCOPE_NOT_FOUND' });
    await t.http.delete('/v1/scopes/missing-scope').expect(404);
  });

  it('does not validate names in paths: an impossible one is simply not found', async () => {
    await t.http.get('/v1/scopes/_system').expect(404);
    await t.http.get('/v1/scopes/a%00b').expect(404);
    await t.http.get(`/v1/scopes/${'x'.repeat(5000)}`).expect(404);
    await t.http.delete('/v1/scopes/%E2%98%83').expect(404);
  });

  it('refuses to delete a scope that holds a stream, even a sealed one (412)', async () => {
    const scope = uniqueName('full');
    await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
    await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: 's1' }).expect(201);
    await t.http
      .put(`/v1/scopes/${scope}/streams/s1/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);

    const plain = await t.http.delete(`/v1/scopes/${scope}`).expect(412);
    expect(plain.text).toBe('');
    const problem = await t.http.delete(`/v1/scopes/${scope}`).set(PROBLEM_HEADERS).expect(412);
    expect(problem.body).toMatchObject({ status: 412, code: 'SCOPE_NOT_EMPTY' });
    await t.http.get(`/v1/scopes/${scope}`).expect(200);

    await t.http.delete(`/v1/scopes/${scope}/streams/s1`).expect(204);
    await t.http.delete(`/v1/scopes/${scope}`).expect(204);
  });

  it('refuses to delete a scope that holds only a reader group and its internal streams (412)', async () => {
    const source = uniqueName('source');
    await t.http.post('/v1/scopes').send({ scopeName: source }).expect(201);
    await t.http.post(`/v1/scopes/${source}/streams`).send({ streamName: 'feed' }).expect(201);
    const scope = uniqueName('internal');
    await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
    await t.http
      .post(`/v1/scopes/${scope}/readergroups`)
      .send({ readerGroupName: 'group', streams: [`${source}/feed`] })
      .expect(201);
    await t.http.get(`/v1/scopes/${scope}/streams`).expect(200, { streams: [] });
    await t.http.delete(`/v1/scopes/${scope}`).expect(412);
  });
});
