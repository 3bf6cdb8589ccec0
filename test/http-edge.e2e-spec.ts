import { PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('HTTP edge: bodies, media types, errors and request ids (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ MAX_BODY_BYTES: '2048' });
  });
  afterAll(() => t.close());

  const postRaw = (body: string, contentType = 'application/json') =>
    t.http.post('/v1/scopes').set('Content-Type', contentType).send(body);

  it.each([
    ['truncated JSON', '{"scopeName":'],
    ['a trailing comma', '{"scopeName":"a",}'],
    ['single quotes', "{'scopeName':'a'}"],
    ['a bare string', '"a"'],
    ['a bare number', '42'],
    ['null', 'null'],
    ['an array', '[{"scopeName":"a"}]'],
  ])('answers malformed JSON (%s) with a 400 problem', async (_, body) => {
    const res = await postRaw(body).expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'MALFORMED_BODY' });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js|node_modules|SyntaxError/);
  });

  it('answers a missing body with a 400 naming the required field', async () => {
    const res = await t.http.post('/v1/scopes').expect(400);
    expect(res.body.errors).toEqual([{ field: 'scopeName', message: expect.any(String) }]);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'answers a %s body with a 415 problem',
    async (type) => {
      const res = await postRaw('scopeName=a', type).expect(415);
      expect(res.body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      await t.http.get('/v1/scopes/a').expect(404);
    },
  );

  it('accepts application/json with a charset and +json types', async () => {
    await postRaw('{"scopeName":"charset-ok"}', 'application/json; charset=utf-8').expect(201);
    await postRaw('{"scopeName":"plus-json"}', 'application/vnd.tributary+json').expect(201);
  });

  it('answers an unsupported charset with 415', async () => {
    await postRaw('{"scopeName":"latin"}', 'application/json; charset=latin1').expect(415);
  });

  it('answers a body over the configured limit with a 413 problem', async () => {
    const res = await postRaw(JSON.stringify({ scopeName: 'big', pad: 'x'.repeat(4096) })).expect(
      413,
    );
    expect(res.body).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    await t.http.get('/v1/scopes/big').expect(404);
  });

  it('puts X-Request-Id on successes, errors and unknown routes', async () => {
    for (const res of [
      await t.http.get('/v1/scopes').expect(200),
      await t.http.get('/v1/scopes/none').expect(404),
      await postRaw('{').expect(400),
      await t.http.get('/v1/nowhere').expect(404),
      await t.http.get('/').expect(404),
    ]) {
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('echoes a well-formed X-Request-Id and replaces a hostile one', async () => {
    const kept = await t.http.get('/v1/scopes').set('X-Request-Id', 'abc-123').expect(200);
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await t.http
      .get('/v1/scopes')
      .set('X-Request-Id', '<script>alert(1)</script>')
      .expect(200);
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('carries the request id and the path in problem documents', async () => {
    const res = await t.http
      .get('/v1/scopes/none')
      .set({ ...PROBLEM_HEADERS, 'X-Request-Id': 'req-42' })
      .expect(404);
    expect(res.body).toEqual({
      type: 'urn:tributary:problem:scope-not-found',
      title: 'Not found',
      status: 404,
      detail: 'Scope none does not exist',
      code: 'SCOPE_NOT_FOUND',
      instance: '/v1/scopes/none',
      requestId: 'req-42',
    });
  });

  it('answers unknown routes and methods with 404 and no body', async () => {
    const res = await t.http.get('/v1/nowhere').expect(404);
    expect(res.text).toBe('');
    await t.http.patch('/v1/scopes/x').send({}).expect(404);
  });

  it('does not advertise the framework', async () => {
    const res = await t.http.get('/v1/scopes').expect(200);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('HTTP edge with the default body limit (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** A JSON body of exactly `bytes` bytes: unknown fields are ignored, so only its size counts. */
  const bodyOf = (bytes: number): string => {
    const head = '{"scopeName":"sized","pad":"';
    return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
  };

  it('accepts 1 MiB and answers one byte more with 413', async () => {
    const post = (body: string) =>
      t.http.post('/v1/scopes').set('Content-Type', 'application/json').send(body);
    const over = await post(bodyOf(1024 * 1024 + 1)).set(PROBLEM_HEADERS);
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await t.http.get('/v1/scopes/sized').expect(404);
    await post(bodyOf(1024 * 1024)).expect(201);
  });
});
