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

  it('refuses to boot with an invalid setting, naming it', async () => {
    service = ServiceProcess.start({ PORT: 'not-a-port', DATA_DIR: dataDir });
    expect(await service.exited()).toBe(1);
    expect(service.output.join('')).toMatch(/Invalid configuration[\s\S]*PORT/);
  });
});
