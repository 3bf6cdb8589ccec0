import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

/** Secrets handed over as files (Docker secrets, Kubernetes secret volumes): `X_FILE`. */
describe('Secrets from files (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir: string;
  let urlFile: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'tributary-secrets-'));
    urlFile = join(dir, 'database_url');
    // As secrets are often written: with a trailing newline.
    await writeFile(urlFile, `${database.url}\n`, { mode: 0o600 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await database.drop();
  });

  it('reads DATABASE_URL from DATABASE_URL_FILE', async () => {
    const service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL_FILE: urlFile,
    });
    try {
      await service.ready();
      const created = await fetch(`${service.baseUrl}/v1/scopes`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ scopeName: 'from-file' }),
      });
      expect(created.status).toBe(201);
    } finally {
      await service.stop();
    }
  });

  it('refuses to start with both DATABASE_URL and DATABASE_URL_FILE, naming them', async () => {
    const service = ServiceProcess.start({
      PORT: String(await freePort()),
      LOG_FORMAT: 'json',
      DATABASE_URL: database.url,
      DATABASE_URL_FILE: urlFile,
    });
    expect(await service.exited()).toBe(1);
    expect(service.lines.map((line) => JSON.parse(line) as { level: string; msg: string })).toEqual(
      [
        expect.objectContaining({
          level: 'fatal',
          msg: 'Invalid configuration: DATABASE_URL and DATABASE_URL_FILE are both set: set only one of them',
        }),
      ],
    );
  });
});
