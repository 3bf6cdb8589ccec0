import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ServiceProcess } from './support/service-process';

/**
 * The README's promise: with no DATABASE_URL the built service runs on a PostgreSQL of its
 * own, and what it acknowledged is still there after a restart.
 */
describe('The built service on its embedded PostgreSQL (smoke)', () => {
  let dataDir: string;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tributary-smoke-'));
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = async (): Promise<ServiceProcess> => {
    const port = String(await freePort());
    service = ServiceProcess.start({ PORT: port, DATA_DIR: dataDir });
    await service.ready();
    return service;
  };

  const json = (method: string, body?: object): RequestInit => ({
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  it('keeps scopes and streams across a restart, and stops its database on SIGTERM', async () => {
    const first = await start();
    expect(
      (await fetch(`${first.baseUrl}/v1/scopes`, json('POST', { scopeName: 'kept' }))).status,
    ).toBe(201);
    const created = await fetch(
      `${first.baseUrl}/v1/scopes/kept/streams`,
      json('POST', { streamName: 'orders', streamTags: ['durable'] }),
    );
    expect(created.status).toBe(201);

    expect(['SIGTERM', 0]).toContain(await first.stop('SIGTERM'));
    expect(first.output.join('')).toMatch(/embedded PostgreSQL stopped/);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    const second = await start();
    expect(await (await fetch(`${second.baseUrl}/v1/scopes`)).json()).toEqual({
      scopes: [{ scopeName: 'kept' }],
    });
    const stream = await fetch(`${second.baseUrl}/v1/scopes/kept/streams/orders`);
    expect(stream.status).toBe(200);
    expect(await stream.json()).toMatchObject({ streamName: 'orders', tags: ['durable'] });
  });

  it('says in one line where the API, the console, Swagger UI, the document and the metrics are', async () => {
    const started = await start();
    const ready = started.lines
      .map((line) => JSON.parse(line) as { msg: string })
      .filter((entry) => entry.msg.startsWith('ready: '));
    expect(ready).toHaveLength(1);
    const base = started.baseUrl;
    expect(ready[0].msg).toBe(
      `ready: API ${base}/v1 · console ${base}/console · Swagger UI ${base}/docs · ` +
        `OpenAPI ${base}/openapi.json · ` +
        `metrics ${base}/metrics`,
    );
    const urls = [...ready[0].msg.matchAll(/http:\/\/\S+/g)].map(([url]) => url);
    expect(urls).toHaveLength(5);
    for (const url of urls) {
      const target = url.replace(/\/v1$/, '/v1/scopes');
      expect([url, (await fetch(target)).status]).toEqual([url, 200]);
    }
  });

  it('writes readable lines, not JSON, with LOG_FORMAT=pretty', async () => {
    service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_FORMAT: 'pretty',
    });
    await service.ready();
    const ready = service.lines.find((line) => line.includes('ready: API'));
    expect(ready).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[Tributary\] ready: API http:\/\/127\.0\.0\.1:/,
    );
    expect(service.lines.filter((line) => line.startsWith('{'))).toEqual([]);
  });

  it('refuses to boot with an invalid setting, naming it', async () => {
    service = ServiceProcess.start({ PORT: 'not-a-port', DATA_DIR: dataDir });
    expect(await service.exited()).toBe(1);
    expect(service.output.join('')).toMatch(/Invalid configuration[\s\S]*PORT/);
  });
});
