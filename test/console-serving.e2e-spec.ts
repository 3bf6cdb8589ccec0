import { get, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { recordFigure } from './support/figures';
import { startTestApp, TestApp } from './support/test-app';

/** A response's headers and its body's bytes as sent (HTTP clients would decode them). */
function rawGet(
  port: number,
  path: string,
  acceptEncoding: string,
): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(
      { host: '127.0.0.1', port, path, headers: { 'Accept-Encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      },
    ).on('error', reject);
  });
}

/** The scripts and style sheets the page loads first, from its HTML. */
const firstLoadAssets = (html: string): string[] =>
  [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+\.(?:js|css))"/g)].map(([, p]) => p);

const SCRIPT_SOURCES = (csp: string): string =>
  csp
    .split(';')
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith('script-src')) ?? '';

/**
 * The console as the service serves it (built into dist/console by the project's build): every
 * path under /console answers the page, hashed files are immutable, everything is compressed,
 * the page's policy allows no inline script, and the API's own paths keep their answers.
 */
describe('Serving the console (e2e)', () => {
  let t: TestApp;
  let page: request.Response;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp();
    page = await t.http.get('/console').set('Accept-Encoding', 'identity');
    const server: Server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((up) => server.listen(0, '127.0.0.1', up));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers the page at /console, revalidated on every use, under a strict policy', () => {
    expect([page.status, page.headers['content-type'], page.headers['cache-control']]).toEqual([
      200,
      'text/html; charset=utf-8',
      'no-cache',
    ]);
    expect(page.text).toContain('<div id="app"></div>');
    const csp = page.headers['content-security-policy'];
    expect(SCRIPT_SOURCES(csp)).toEqual("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it.each([
    '/console/',
    '/console/scopes/sales',
    '/console/scopes/sales/streams/orders',
    '/console/scopes/sales/readergroups/billing',
    '/console/audit?principal=ann',
    '/console/health',
    '/console/apply',
    '/console/no/such/screen',
  ])('answers the same page at %s (a deep link survives a reload)', async (path) => {
    const res = await t.http.get(path).set('Accept-Encoding', 'identity');
    expect([res.status, res.headers.etag, res.text]).toEqual([200, page.headers.etag, page.text]);
  });

  it('serves the hashed files as immutable, and a missing one as 404, not as the page', async () => {
    const [script] = firstLoadAssets(page.text);
    const asset = await t.http.get(script).set('Accept-Encoding', 'identity');
    expect([asset.status, asset.headers['content-type'], asset.headers['cache-control']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    const missing = await t.http.get('/console/assets/index-00000000.js');
    expect([missing.status, missing.headers['content-type']]).toEqual([
      404,
      'text/plain; charset=utf-8',
    ]);
  });

  it('sends brotli or gzip as the client accepts, the same bytes once decoded', async () => {
    for (const path of ['/console', ...firstLoadAssets(page.text)]) {
      const plain = (await rawGet(port, path, 'identity')).body;
      const br = await rawGet(port, path, 'gzip, deflate, br');
      const gz = await rawGet(port, path, 'gzip');
      expect([path, br.headers['content-encoding'], gz.headers['content-encoding']]).toEqual([
        path,
        'br',
        'gzip',
      ]);
      expect(br.headers.vary).toEqual('Accept-Encoding');
      expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
      expect(gunzipSync(gz.body).equals(plain)).toBe(true);
    }
  });

  it('loads at most 200 KB of compressed script and style first', async () => {
    const sent = (encoding: string) =>
      Promise.all(
        firstLoadAssets(page.text).map(async (path) => {
          const res = await rawGet(port, path, encoding);
          expect([path, res.headers['content-encoding']]).toEqual([path, encoding]);
          return res.body.length;
        }),
      );
    const sizes = await sent('br');
    const gzipSizes = await sent('gzip');
    const total = sizes.reduce((a, b) => a + b, 0);
    const totalGzip = gzipSizes.reduce((a, b) => a + b, 0);
    recordFigure('console first load, brotli bytes', total);
    recordFigure('console first load, gzip bytes', totalGzip);
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    expect(totalGzip).toBeLessThanOrEqual(200 * 1024);
  });

  it('answers 304 to a client that has the page (its tag in a list, weak, or *), and HEAD without a body', async () => {
    const again = await t.http
      .get('/console/scopes/x')
      .set('Accept-Encoding', 'identity')
      .set('If-None-Match', page.headers.etag);
    expect([again.status, again.text]).toEqual([304, '']);
    const etag = String(page.headers.etag);
    for (const held of [`"other", ${etag}`, `W/${etag}`, '*']) {
      const revalidated = await t.http
        .get('/console')
        .set('Accept-Encoding', 'identity')
        .set('If-None-Match', held);
      expect([held, revalidated.status]).toEqual([held, 304]);
    }
    // A condition that is no list of tags names no copy the client holds: the page, whole.
    const malformed = await t.http
      .get('/console')
      .set('Accept-Encoding', 'identity')
      .set('If-None-Match', `a   ${etag}`);
    expect([malformed.status, malformed.text]).toEqual([200, page.text]);
    const head = await t.http.head('/console').set('Accept-Encoding', 'identity');
    expect([head.status, head.headers['content-length'], head.text]).toEqual([
      200,
      String(Buffer.byteLength(page.text)),
      undefined,
    ]);
  });

  it('leaves the API, its document, Swagger UI and the metrics their own answers', async () => {
    const unknown = await t.http.get('/v1/no-such-thing').set('Accept', 'application/problem+json');
    expect([unknown.status, unknown.headers['content-type'], unknown.body.status]).toEqual([
      404,
      'application/problem+json; charset=utf-8',
      404,
    ]);
    const scopes = await t.http.get('/v1/scopes');
    expect([scopes.status, scopes.body]).toEqual([200, { scopes: [] }]);
    const docs = await t.http.get('/docs/');
    expect([docs.status, docs.text.includes('swagger-ui')]).toEqual([200, true]);
    const metrics = await t.http.get('/metrics');
    expect([metrics.status, metrics.headers['content-type']]).toEqual([
      200,
      'text/plain; version=0.0.4; charset=utf-8',
    ]);
    // Only GET and HEAD are the console's: anything else below /console is the API's 404.
    const post = await t.http.post('/console').set('Accept', 'application/problem+json');
    expect([post.status, post.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  describe('with CONSOLE_ENABLED=false', () => {
    let off: TestApp;
    beforeAll(async () => {
      off = await startTestApp({ CONSOLE_ENABLED: 'false' });
    });
    afterAll(() => off.close());

    it('has no console (404) and the same API', async () => {
      for (const path of ['/console', '/console/scopes/sales', firstLoadAssets(page.text)[0]]) {
        const res = await off.http.get(path);
        expect([path, res.status]).toEqual([path, 404]);
      }
      expect((await off.http.get('/v1/scopes')).status).toBe(200);
    });
  });
});
