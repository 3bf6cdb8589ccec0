import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { tributary } from './support/cli-process';
import { eventually } from './support/eventually';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(120_000);

const CLI = join(__dirname, '../dist/src/cli/main.js');

/** `tributary watch` running until stopped, its lines as they come. */
class Watcher {
  readonly lines: string[] = [];
  stderr = '';
  private readonly child: ChildProcess;
  private buffer = '';

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString();
      const lines = this.buffer.split('\n');
      this.buffer = lines.pop()!;
      this.lines.push(...lines);
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  async until(count: number, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length < count) {
      if (Date.now() > deadline) {
        throw new Error(`${this.lines.length} lines of ${count}; stderr: ${this.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Interrupts it; its exit code. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGINT');
    return exited;
  }
}

/** docs/extensions.md section 8: `tributary watch`, as a process, against the built service. */
describe('tributary watch (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let port: number;
  let service: ServiceProcess;
  let other: ServiceProcess;

  const start = (p: number) =>
    ServiceProcess.start({ PORT: String(p), DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  const post = async (base: string, path: string, body: object) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
  };
  /** How many reads of the feed (GET /v1/events) the service at `url` has answered. */
  const feedReads = async (url: string): Promise<number> => {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const line = /^http_requests_total\{[^}]*operation="listEvents",status="200"\} (\d+)$/m;
    return Number(line.exec(metrics)?.[1] ?? 0);
  };
  /** Returns once the service at `url` has answered a read of the feed after the `before`th. */
  const feedReadAfter = async (url: string, before: number): Promise<void> => {
    const more = async () => (await feedReads(url)) > before;
    expect(await eventually(more, true, { attempts: 300 })).toBe(true);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    port = await freePort();
    service = start(port);
    other = start(await freePort());
    await Promise.all([service.ready(), other.ready()]);
  });
  afterAll(async () => {
    await Promise.all([service.stop(), other.stop()]);
    await database.drop();
  });

  it('prints one JSON line per event from now, and resumes after the service restarts without repeating or losing one', async () => {
    const url = `http://127.0.0.1:${port}`;
    const before = await feedReads(url);
    const watch = new Watcher(['--url', url, 'watch', '-o', 'json']);
    // It starts from the newest position: the changes come once the service has answered it.
    await feedReadAfter(url, before);
    await post(url, '/v1/scopes', { scopeName: 'w1' });
    await post(url, '/v1/scopes/w1/streams', { streamName: 's1' });
    await watch.until(2);

    // The service goes away; changes go on through the other instance.
    await service.stop();
    await post(other.baseUrl, '/v1/scopes/w1/streams', { streamName: 's2' });
    await post(other.baseUrl, '/v1/scopes', { scopeName: 'w2' });
    service = start(port);
    await service.ready();
    await post(url, '/v1/scopes/w2/streams', { streamName: 's3' });
    await watch.until(5);
    expect(await watch.stop()).toBe(0);

    const events = watch.lines.map((line) => JSON.parse(line) as Record<string, string>);
    expect(events.map((e) => e.resource)).toEqual([
      'prn::/scope:w1',
      'prn::/scope:w1/stream:s1',
      'prn::/scope:w1/stream:s2',
      'prn::/scope:w2',
      'prn::/scope:w2/stream:s3',
    ]);
    const ids = events.map((e) => BigInt(e.id));
    expect(ids).toEqual(ids.map((_, i) => ids[0] + BigInt(i)));
  });

  it('prints a table line per event, from --since and of one --scope', async () => {
    const url = `http://127.0.0.1:${port}`;
    const watch = new Watcher([
      '--url',
      url,
      'watch',
      '--since',
      '0',
      '--scope',
      'w2',
      '-o',
      'table',
    ]);
    await watch.until(2);
    expect(await watch.stop()).toBe(0);
    expect(watch.lines[0]).toMatch(/^\d+ {2}\S+Z {2}createScope {2}prn::\/scope:w2 {2}anonymous$/);
    expect(watch.lines[1]).toMatch(/createStream {2}prn::\/scope:w2\/stream:s3/);
  });

  it('with a --timeout too short for a long poll, asks about once a second, not in a loop', async () => {
    const url = `http://127.0.0.1:${port}`;
    const before = await feedReads(url);
    const watch = new Watcher(['--url', url, 'watch', '--timeout', '2000']);
    // Once it has its position, 3 s of watching whose requests are counted, then a change.
    await feedReadAfter(url, before);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await post(url, '/v1/scopes', { scopeName: 'w3' });
    await watch.until(1);
    expect(await watch.stop()).toBe(0);
    // The position, then about one poll a second for 3 s (it was some 300 a second).
    expect(await feedReads(url)).toBeLessThanOrEqual(before + 8);
    expect(watch.lines).toEqual([expect.stringContaining('"resource":"prn::/scope:w3"')]);
  });

  it('ends quietly, exit 0, when whoever reads its output stops reading (watch | head -1)', async () => {
    const url = `http://127.0.0.1:${port}`;
    await post(url, '/v1/scopes', { scopeName: 'w4' });
    const child = spawn(process.execPath, [CLI, '--url', url, 'watch', '--since', '0'], {
      env: { PATH: process.env.PATH, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    await post(url, '/v1/scopes', { scopeName: 'w5' });
    expect({ code: await exited, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('exits with the code of a refusal: a position beyond the newest, a malformed one', async () => {
    const url = `http://127.0.0.1:${port}`;
    const beyond = await tributary(['--url', url, 'watch', '--since', '999999']);
    expect(beyond.code).toBe(5);
    expect(beyond.stderr).toMatch(/beyond the newest/);
    const malformed = await tributary(['--url', url, 'watch', '--since', 'x']);
    expect(malformed.code).toBe(1);
  });
});
