import { spawnSync } from 'node:child_process';
import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { AddressInfo, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, connect as tlsConnect } from 'node:tls';
import { loadConfig } from '../src/config/app-config';
import { basic, writeAccounts } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';
import { selfSignedCertificate } from './support/tls';

describe('HTTPS with TLS_CERT_FILE and TLS_KEY_FILE (e2e)', () => {
  let t: TestApp;
  let port: number;
  let cert: Buffer;
  let key: Buffer;

  beforeAll(async () => {
    const files = await selfSignedCertificate();
    cert = files.cert;
    key = await readFile(files.keyFile);
    t = await startTestApp({ TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('serves the API over HTTPS', async () => {
    const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port, path: '/v1/scopes', ca: cert, servername: 'localhost' },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer).toEqual({ status: 200, body: '{"scopes":[]}' });
  });

  it('does not answer plain HTTP', async () => {
    const reply = await new Promise<string>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1', () =>
        socket.write('GET /v1/scopes HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
      socket.on('error', () => resolve(data));
      socket.on('close', () => resolve(data));
    });
    expect(reply).not.toMatch(/^HTTP\/1\.1 200/);
  });

  it('refuses TLS 1.1: the server sends the protocol-version alert', async () => {
    // Node's client refuses TLS 1.1 by itself unless told otherwise: this one offers 1.1 (and
    // the old ciphers it needs), which a server that allows it accepts, as the control shows.
    const offerTls11 = (to: number) =>
      new Promise<string>((resolve) => {
        const socket = tlsConnect(
          {
            host: '127.0.0.1',
            port: to,
            ca: cert,
            servername: 'localhost',
            minVersion: 'TLSv1',
            maxVersion: 'TLSv1.1',
            ciphers: 'DEFAULT@SECLEVEL=0',
          },
          () => {
            resolve(`connected with ${socket.getProtocol()}`);
            socket.end();
          },
        );
        socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
    const lenient = createTlsServer(
      { cert, key, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' },
      (socket) => socket.end(),
    );
    await new Promise<void>((resolve) => lenient.listen(0, '127.0.0.1', resolve));
    try {
      expect(await offerTls11((lenient.address() as AddressInfo).port)).toBe(
        'connected with TLSv1.1',
      );
    } finally {
      lenient.close();
    }
    expect(await offerTls11(port)).toBe('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');
  });
});

describe('Security headers, CORS and rate limits (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      CORS_ORIGINS: 'https://console.example.com',
      RATE_LIMIT_PER_MINUTE: '20',
    });
  });
  afterAll(() => t.close());

  it('sends helmet security headers', async () => {
    const res = await t.http.get('/v1/scopes').expect(200);
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'content-security-policy': expect.stringContaining("default-src 'self'"),
    });
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('allows a preflight from a listed origin, and refuses others', async () => {
    const allowed = await t.http
      .options('/v1/scopes')
      .set('Origin', 'https://console.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,authorization');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://console.example.com');
    expect(allowed.headers['access-control-allow-methods']).toContain('POST');
    expect(allowed.headers['access-control-allow-headers']).toMatch(/authorization/i);
    expect(allowed.headers['access-control-allow-headers']).toMatch(/If-Match.*If-None-Match/);

    const refused = await t.http
      .options('/v1/scopes')
      .set('Origin', 'https://evil.example.com')
      .set('Access-Control-Request-Method', 'POST');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();

    const simple = await t.http
      .get('/v1/scopes')
      .set('Origin', 'https://console.example.com')
      .expect(200);
    expect(simple.headers['access-control-allow-origin']).toBe('https://console.example.com');
    expect(simple.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
    // A browser client reads the entity tag to send it back in If-Match.
    expect(simple.headers['access-control-expose-headers']).toMatch(/ETag/);
  });

  it('answers 429 with Retry-After over RATE_LIMIT_PER_MINUTE, but never to the probes', async () => {
    const statuses: number[] = [];
    let limited: { headers: Record<string, string>; body: Record<string, unknown> } | undefined;
    for (let i = 0; i < 25; i++) {
      const res = await t.http.get('/v1/scopes');
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(20);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited!.body).toMatchObject({ status: 429 });
    for (const path of ['/ping', '/livez', '/readyz']) await t.http.get(path).expect(200);
    const scrape = (await t.http.get('/metrics').expect(200)).text;
    const limitedCount = Number(/^tributary_rate_limited_total (\d+)$/m.exec(scrape)?.[1]);
    expect(limitedCount).toBe(statuses.filter((status) => status === 429).length);
  });

  it('keeps CORS and rate limits off by default', async () => {
    const plain = await startTestApp();
    try {
      const res = await plain.http
        .get('/v1/scopes')
        .set('Origin', 'https://console.example.com')
        .expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      for (let i = 0; i < 30; i++) await plain.http.get('/v1/scopes').expect(200);
    } finally {
      await plain.close();
    }
  });
});

describe('npm run accounts (e2e)', () => {
  const cli = join(__dirname, '../dist/src/auth/accounts-cli.js');
  const run = (args: string[], password: string) =>
    spawnSync(process.execPath, [cli, ...args], { input: `${password}\n`, encoding: 'utf8' });

  it('appends a hashed account that then logs in, and refuses mistakes', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'tributary-cli-')), 'accounts');
    const added = run(['add', 'alice', '--acl', 'prn::*,READ', '--file', file], 'alice-password');
    expect([added.status, added.stderr]).toEqual([0, '']);
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^alice:scrypt\$[^:]+:prn::\*,READ\n$/);
    expect(text).not.toContain('alice-password');

    expect(
      run(['add', 'alice', '--acl', 'prn::*,READ', '--file', file], 'another-one').status,
    ).toBe(1);
    expect(
      run(['add', 'bob', '--acl', 'prn::*,WRITE', '--file', file], 'bob-password').stderr,
    ).toMatch(/invalid ACL/);
    expect(run(['add', 'bob', '--acl', 'prn::*,READ', '--file', file], 'short').stderr).toMatch(
      /at least 8/,
    );
    expect(run(['add', 'bob'], 'bob-password').stderr).toMatch(/usage/);

    const t = await startTestApp({ AUTH_ENABLED: 'true', AUTH_ACCOUNTS_FILE: file });
    try {
      await t.http
        .get('/v1/scopes')
        .set('Authorization', basic('alice', 'alice-password'))
        .expect(200);
      await t.http
        .post('/v1/scopes')
        .set('Authorization', basic('alice', 'alice-password'))
        .send({ scopeName: 'x' })
        .expect(403);
    } finally {
      await t.close();
    }
  });

  it('refuses to boot with auth on and no accounts file, or a broken one', async () => {
    expect(() => loadConfig({ AUTH_ENABLED: 'true' })).toThrow(/AUTH_ACCOUNTS_FILE/);
    expect(() => loadConfig({ TLS_CERT_FILE: '/x' })).toThrow(/TLS_CERT_FILE and TLS_KEY_FILE/);
    expect(() => loadConfig({ CORS_ORIGINS: 'not an origin' })).toThrow(/CORS_ORIGINS/);
    const broken = await writeAccounts({ admin: 'prn::*,READ' });
    await appendFile(broken, 'mallory:plaintext:prn::*,READ\n');
    await expect(
      startTestApp({ AUTH_ENABLED: 'true', AUTH_ACCOUNTS_FILE: broken }),
    ).rejects.toThrow(/line 2/);
  });
});
