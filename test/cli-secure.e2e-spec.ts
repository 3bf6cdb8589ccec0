import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PASSWORD, writeAccounts } from './support/accounts';
import { CliRun, tributary } from './support/cli-process';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';
import { selfSignedCertificate } from './support/tls';

/** The CLI against the built service speaking HTTPS with authentication on (exit codes 4 and 6). */
describe('tributary CLI over TLS with authentication (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: ServiceProcess;
  let url: string;
  let cacert: string;

  /** The CLI with the service's URL and CA, and the given extra options. */
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> =>
    tributary(['--url', url, '--cacert', cacert, ...args], { env });
  const as = (user: string, password = PASSWORD) => ['--user', user, '--password', password];

  beforeAll(async () => {
    database = await createTestDatabase();
    const tls = await selfSignedCertificate();
    cacert = tls.certFile;
    const accounts = await writeAccounts({
      admin: 'prn::*,READ_UPDATE',
      reader: 'prn::/scope:sec,READ;prn::/scope:sec/*,READ',
    });
    const port = await freePort();
    url = `https://localhost:${port}`;
    service = ServiceProcess.start({
      PORT: String(port),
      DATABASE_URL: database.url,
      TLS_CERT_FILE: tls.certFile,
      TLS_KEY_FILE: tls.keyFile,
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: accounts,
      AUTH_MAX_FAILURES: '1000',
    });
    // The process helper polls over plain HTTP; this service speaks HTTPS only, so ask the CLI.
    const deadline = Date.now() + 90_000;
    while ((await cli(['health'])).code !== 0) {
      if (Date.now() > deadline) throw new Error(`service not ready:\n${service.output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // What several tests read, made here rather than by one of them: the reader's scope and a
    // stream in it.
    for (const args of [
      ['scopes', 'create', 'sec'],
      ['streams', 'create', 'sec', 'orders'],
    ]) {
      expect({ args, ...(await cli([...args, ...as('admin')])) }).toMatchObject({ args, code: 0 });
    }
  });
  afterAll(async () => {
    await service.stop();
    await database.drop();
  });

  it('works over HTTPS with --cacert and the credentials of an account', async () => {
    const created = await cli(['scopes', 'create', 'https', '-o', 'json', ...as('admin')]);
    expect(created).toEqual({ code: 0, stdout: '{\n  "scopeName": "https"\n}\n', stderr: '' });
    expect((await cli(['streams', 'create', 'https', 'orders', ...as('admin')])).code).toBe(0);
  });

  it('takes the credentials from TRIBUTARY_USER and TRIBUTARY_PASSWORD', async () => {
    const run = await cli(['streams', 'get', 'sec', 'orders'], {
      TRIBUTARY_USER: 'reader',
      TRIBUTARY_PASSWORD: PASSWORD,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ streamName: 'orders' });
  });

  it('exits 4 without credentials, with a wrong password, and without the permission', async () => {
    const anonymous = await cli(['scopes', 'get', 'sec']);
    expect(anonymous.code).toBe(4);
    expect(anonymous.stderr).toMatch(/^error: .+/);
    expect((await cli(['scopes', 'get', 'sec', ...as('admin', 'wrong')])).code).toBe(4);
    const denied = await cli(['streams', 'create', 'sec', 'more', ...as('reader')]);
    expect(denied.code).toBe(4);
    expect((await cli(['streams', 'get', 'sec', 'more', ...as('admin')])).code).toBe(2);
  });

  it('plans with READ, and applies only with the permission of every change (exit 4)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-secure-'));
    const file = join(dir, 'sec.yaml');
    await writeFile(
      file,
      'scopes:\n  - scopeName: sec\n    streams:\n      - streamName: planned\n',
    );
    const plan = await cli(['apply', '-f', file, '--dry-run', '-o', 'json', ...as('reader')]);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ summary: { create: 1 } });
    const denied = await cli(['apply', '-f', file, '--yes', ...as('reader')]);
    expect(denied.code).toBe(4);
    expect(denied.stderr).toContain('READ_UPDATE on prn::/scope:sec');
    expect((await cli(['streams', 'get', 'sec', 'planned', ...as('admin')])).code).toBe(2);
    expect((await cli(['apply', '-f', file, '--yes', ...as('admin')])).code).toBe(0);
    expect((await cli(['streams', 'get', 'sec', 'planned', ...as('admin')])).code).toBe(0);
  });

  it('exits 6 when the certificate is not trusted, and 1 when --cacert cannot be read', async () => {
    const untrusted = await tributary(['--url', url, 'scopes', 'list', ...as('admin')]);
    expect(untrusted.code).toBe(6);
    expect(untrusted.stderr).toMatch(/cannot reach .*(certificate|SELF_SIGNED)/i);
    const missing = await cli([
      'scopes',
      'list',
      '--cacert',
      '/nonexistent/ca.pem',
      ...as('admin'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--cacert');
  });
});
