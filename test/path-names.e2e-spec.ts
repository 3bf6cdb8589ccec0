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

  it('answers a malformed percent-encoding with 400, not 500', async () => {
    const res = await t.http.get('/v1/scopes/%FF');
    expect(res.status).toBeLessThan(500);
  });
});
