import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

/** What src/common/required-on-first-use.ts leaves out of a process until it is needed. */
const ON_FIRST_USE = ['jose', 'pino-pretty', 'yaml'];

/**
 * A service with the defaults (JSON logs, no YAML body, no bearer tokens) never requires the
 * packages that only some processes use: each would stay in its heap for its life. Read from the
 * built service as a process of its own, after it has answered requests.
 */
describe('packages required on first use (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'tributary-packages-'));
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  /** Runs the service with `env`, sends it `requests`, stops it: the packages it had required. */
  async function packagesAfter(
    name: string,
    env: NodeJS.ProcessEnv,
    requests: (baseUrl: string) => Promise<void>,
  ): Promise<string[]> {
    const file = join(dir, `${name}.txt`);
    const service = ServiceProcess.start(
      {
        PORT: String(await freePort()),
        DATABASE_URL: database.url,
        LOADED_PACKAGES_FILE: file,
        ...env,
      },
      { execArgv: ['--import', join(__dirname, 'support/loaded-packages.mjs')] },
    );
    try {
      await service.ready();
      await requests(service.baseUrl);
    } finally {
      await service.stop();
    }
    return readFileSync(file, 'utf8').split('\n');
  }

  const send = async (url: string, init?: RequestInit): Promise<number> =>
    (await fetch(url, init)).status;

  it('a service with the defaults answers without them', async () => {
    const packages = await packagesAfter('defaults', { LOG_FORMAT: 'json' }, async (base) => {
      const scope = { scopeName: 'first-use' };
      const json = { 'Content-Type': 'application/json' };
      expect(
        await send(`${base}/v1/scopes`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify(scope),
        }),
      ).toBe(201);
      expect(await send(`${base}/v1/scopes/first-use/streams`)).toBe(200);
      expect(await send(`${base}/v1/health`)).toBe(200);
      expect(await send(`${base}/metrics`)).toBe(200);
    });
    // The file does hold what the process required, its other packages among it.
    expect(packages).toEqual(expect.arrayContaining(['pg', 'typeorm', 'pino']));
    expect(packages.filter((name) => ON_FIRST_USE.includes(name))).toEqual([]);
  });

  it('requires each one when it is used: a YAML body, logs for a terminal', async () => {
    const packages = await packagesAfter('used', { LOG_FORMAT: 'pretty' }, async (base) => {
      const status = await send(`${base}/v1/apply?dryRun=true`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/yaml' },
        body: 'scopes:\n  - scopeName: first-use-yaml\n',
      });
      expect(status).toBe(200);
    });
    expect(packages).toEqual(expect.arrayContaining(['pino-pretty', 'yaml']));
    expect(packages).not.toContain('jose');
  });
});
