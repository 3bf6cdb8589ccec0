import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockingServer, released } from '../src/database/embedded/left-running';
import { failedStart } from './support/failed-start';
import { freePort, ServiceProcess } from './support/service-process';

jest.setTimeout(180_000);

const STREAMS = 25;

/**
 * The embedded default after a crash: the built service killed with SIGKILL (as the
 * out-of-memory killer or a hard stop does) leaves its PostgreSQL running; the next start
 * deals with it by itself.
 */
describe('The embedded PostgreSQL after its service was killed (e2e)', () => {
  const dirs: string[] = [];
  const services: ServiceProcess[] = [];

  /** A DATA_DIR of its own, that the server's account may enter when the tests run as root. */
  const dataDir = async (): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-crash-'));
    await chmod(dir, 0o755);
    dirs.push(dir);
    return dir;
  };
  const start = async (dir: string): Promise<ServiceProcess> => {
    const service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATA_DIR: dir,
      LOG_FORMAT: 'json',
    });
    services.push(service);
    await service.ready();
    return service;
  };
  const call = (service: ServiceProcess, method: string, path: string, body?: object) =>
    fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    // A server a failed test left behind is stopped too.
    for (const dir of dirs) {
      const clusterDir = join(dir, 'postgres');
      const pid = await lockingServer(clusterDir);
      if (pid !== undefined) {
        process.kill(pid, 'SIGINT');
        await released(clusterDir, pid, 30_000);
      }
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts again by itself, stopping the server its dead service left, with all it had acknowledged', async () => {
    const dir = await dataDir();
    const clusterDir = join(dir, 'postgres');
    const first = await start(dir);
    expect((await call(first, 'POST', '/v1/scopes', { scopeName: 'kept' })).status).toBe(201);
    const written: string[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const streamName = `s-${String(i).padStart(3, '0')}`;
      const res = await call(first, 'POST', '/v1/scopes/kept/streams', { streamName });
      if (res.status === 201) written.push(streamName);
    }
    expect(written).toHaveLength(STREAMS);

    const server = await lockingServer(clusterDir);
    expect(server).toBeDefined();
    first.signal('SIGKILL');
    expect(await first.exited()).toBe('SIGKILL');
    // Its server goes on running, holding the cluster.
    expect(await lockingServer(clusterDir)).toBe(server);

    const second = await start(dir);
    const said = second.lines
      .map((line) => JSON.parse(line) as { msg: string })
      .filter((entry) => entry.msg.includes('was still running'))
      .map((entry) => entry.msg);
    expect(said).toEqual([
      `the embedded PostgreSQL in ${clusterDir} was still running (PID ${server}) after its ` +
        `service (PID ${first.pid}) ended without stopping it: stopped it cleanly`,
    ]);
    const listed = (await (await call(second, 'GET', '/v1/scopes/kept/streams')).json()) as {
      streams: { streamName: string }[];
    };
    expect(listed.streams.map((stream) => stream.streamName)).toEqual(written);

    expect(['SIGTERM', 0]).toContain(await second.stop());
    expect(await lockingServer(clusterDir)).toBeUndefined();
  });

  it('leaves alone a server whose service still runs, and fails naming that service', async () => {
    const dir = await dataDir();
    const owner = await start(dir);
    const line = await failedStart({ DATA_DIR: dir });
    expect(line).toBe(
      `cannot start: the embedded PostgreSQL in ${join(dir, 'postgres')} is in use by another ` +
        `Tributary service (PID ${owner.pid}): stop that service first, or give this one a ` +
        'DATA_DIR of its own',
    );
    expect((await call(owner, 'GET', '/v1/scopes')).status).toBe(200);
  });
});
