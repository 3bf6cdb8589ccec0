import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CONSOLE_PAGE, ConsoleFile, withPageMeta } from './console-files';

const PAGE = '<!doctype html><html><head><title>t</title></head><body></body></html>';

function files(): Map<string, ConsoleFile> {
  const bytes = Buffer.from(PAGE);
  const page: ConsoleFile = {
    mediaType: 'text/html; charset=utf-8',
    cacheControl: 'no-cache',
    etag: '"page"',
    bytes,
    encoded: { br: Buffer.from('old br'), gzip: Buffer.from('old gzip') },
  };
  return new Map([
    [CONSOLE_PAGE, page],
    ['/assets/a.js', { ...page, etag: '"a"' }],
  ]);
}

describe('withPageMeta', () => {
  it('adds the elements to the head, escaped, and stores the new page encoded anew', () => {
    const before = files();
    const after = withPageMeta(before, {
      'tributary-oidc-issuer': 'https://id.example.com/realms/a"b<c>&d',
      'tributary-oidc-client-id': 'console',
    });
    const page = after.get(CONSOLE_PAGE)!;
    const html = page.bytes.toString('utf8');
    expect(html).toBe(
      '<!doctype html><html><head><title>t</title>' +
        '<meta name="tributary-oidc-issuer" content="https://id.example.com/realms/a&quot;b&lt;c&gt;&amp;d" />' +
        '<meta name="tributary-oidc-client-id" content="console" />' +
        '</head><body></body></html>',
    );
    expect(brotliDecompressSync(page.encoded.br!).toString('utf8')).toBe(html);
    expect(gunzipSync(page.encoded.gzip!).toString('utf8')).toBe(html);
    expect(page.etag).toMatch(/^"[\w-]{27}"$/);
    expect([page.mediaType, page.cacheControl]).toEqual(['text/html; charset=utf-8', 'no-cache']);
    // Other files, and the map it was given, stay as they were.
    expect(after.get('/assets/a.js')).toBe(before.get('/assets/a.js'));
    expect(before.get(CONSOLE_PAGE)!.bytes.toString('utf8')).toBe(PAGE);
  });

  it('leaves the files as they are with nothing to add', () => {
    const before = files();
    expect(withPageMeta(before, {})).toBe(before);
  });

  it('refuses a page without a head', () => {
    const broken = files();
    broken.set(CONSOLE_PAGE, {
      ...broken.get(CONSOLE_PAGE)!,
      bytes: Buffer.from('<p>no head</p>'),
    });
    expect(() => withPageMeta(broken, { a: 'b' })).toThrow('no </head>');
  });
});
