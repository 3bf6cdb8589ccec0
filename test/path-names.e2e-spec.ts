import { startTestApp, TestApp } from './support/test-app';

/** Names in paths are not validated, but no name, however odd, may reach the database as an error. */
describe('Impossible names in paths (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.http.post('/v1/scopes').send({ scopeName: 'real' }).expect(201);
    await t.http.post('/v1/scopes/real/streams').send({ streamName: 's' }).expect(201);
    await t.http
      .post('/v1/scopes/real/readergroups')
      .send({ readerGroupName: 'g', streams: ['s'] })
      .expect(201);
  });
  afterAll(() => t.close());

  const NUL = 'a%00b';
  it.each([
    ['GET', `/v1/scopes/${NUL}`],
    ['DELETE', `/v1/scopes/${NUL}`],
    ['GET', `/v1/scopes/${NUL}/streams`],
    ['POST', `/v1/scopes/${NUL}/streams`],
    ['GET', `/v1/scopes/${NUL}/streams/s`],
    ['PUT', `/v1/scopes/${NUL}/streams/s`],
    ['PUT', `/v1/scopes/${NUL}/streams/s/state`],
    ['DELETE', `/v1/scopes/${NUL}/streams/s`],
    ['GET', `/v1/scopes/${NUL}/streams/s/scaling-events?from=0&to=1`],
    ['GET', `/v1/scopes/${NUL}/readergroups`],
    ['POST', `/v1/scopes/${NUL}/readergroups`],
    ['GET', `/v1/scopes/${NUL}/readergroups/g`],
    ['DELETE', `/v1/scopes/${NUL}/readergroups/g`],
    ['PUT', `/v1/scopes/real/readergroups/${NUL}/readers/r`],
    ['PUT', `/v1/scopes/${NUL}/readergroups/g/readers/r`],
    ['DELETE', `/v1/scopes/real/readergroups/g/readers/${NUL}`],
    ['GET', `/v1/scopes/real/streams/${NUL}`],
  ])('%s %s is not found (404)', async (method, path) => {
    const body =
      method === 'POST' && path.endsWith('/streams')
        ? { streamName: 'x' }
        : method === 'POST'
          ? { readerGroupName: 'x', streams: ['real/s'] }
          : method === 'PUT' && path.endsWith('/state')
            ? { streamState: 'SEALED' }
            : method === 'PUT' && !path.includes('/readers/')
              ? { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 } }
              : undefined;
    const req = t.http[method.toLowerCase() as 'get'](path);
    const res = await (body ? req.send(body) : req);
    expect(res.status).toBe(404);
  });

  it('names the missing resource in the problem document', async () => {
    const res = await t.http
      .get(`/v1/scopes/${NUL}/streams/s`)
      .set('Accept', 'application/problem+json')
      .expect(404);
    expect(res.body.code).toBe('SCOPE_NOT_FOUND');
    const stream = await t.http
      .get(`/v1/scopes/real/streams/${NUL}`)
      .set('Accept', 'application/problem+json')
      .expect(404);
    expect(stream.body.code).toBe('STREAM_NOT_FOUND');
  });

  it('refuses a tag holding NUL in a body or a filter with 400', async () => {
    const created = await t.http
      .post('/v1/scopes/real/streams')
      .send({ streamName: 'tagged', streamTags: ['a\u0000b'] })
      .expect(400);
    expect(created.body.errors.map((e: { field: string }) => e.field)).toEqual(['streamTags[0]']);
    await t.http
      .put('/v1/scopes/real/streams/s')
      .send({
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
        streamTags: ['\u0000'],
      })
      .expect(400);
    const filtered = await t.http
      .get('/v1/scopes/real/streams?filter_type=tag&filter_value=a%00b')
      .expect(400);
    expect(filtered.body.errors.map((e: { field: string }) => e.field)).toEqual(['filter_value']);
  });

  it('answers a malformed percent-encoding with 400, not 500', async () => {
    await t.http.get('/v1/scopes/%FF').expect(400);
  });
});
