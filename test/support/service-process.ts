import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../src/startup/free-port';

export { freePort };

const MAIN = join(__dirname, '../../dist/src/main.js');

/** What to run instead of the built service (the benchmark's floor server, node flags). */
export interface ProcessOptions {
  /** The script node runs; the built service by default. */
  main?: string;
  /** Node's own options, before the script (`--cpu-prof`, `--require ...`). */
  execArgv?: string[];
  /** The working directory (where a relative DATA_DIR lands); this process's by default. */
  cwd?: string;
  /**
   * Where its standard output goes: a file (a benchmark's `/dev/null`, so that millions of
   * request lines are written as in production but not kept); else kept in `output`.
   */
  stdoutFile?: string;
}

/** The built service (`dist/src/main.js`) running as a process of its own. */
export class ServiceProcess {
  readonly output: string[] = [];
  private readonly child: ChildProcess;

  private constructor(
    readonly baseUrl: string,
    env: NodeJS.ProcessEnv,
    options: ProcessOptions,
  ) {
    const stdout = options.stdoutFile === undefined ? 'pipe' : openSync(options.stdoutFile, 'w');
    this.child = spawn(process.execPath, [...(options.execArgv ?? []), options.main ?? MAIN], {
      env,
      cwd: options.cwd,
      stdio: ['ignore', stdout, 'pipe'],
    });
    if (typeof stdout === 'number') closeSync(stdout);
    this.child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  /** Starts the service; the environment is exactly `env` plus PATH (no inherited DATABASE_URL). */
  static start(env: NodeJS.ProcessEnv, options: ProcessOptions = {}): ServiceProcess {
    const port = env.PORT ?? '0';
    return new ServiceProcess(
      `http://127.0.0.1:${port}`,
      { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'log', ...env },
      options,
    );
  }

  /**
   * `count` instances on one database, each on a free port, started at once (the migrations
   * run under an advisory lock, once) and answering.
   */
  static async instances(
    databaseUrl: string,
    count = 2,
    env: NodeJS.ProcessEnv = {},
  ): Promise<ServiceProcess[]> {
    const services = await Promise.all(
      Array.from({ length: count }, async () =>
        ServiceProcess.start({ ...env, PORT: String(await freePort()), DATABASE_URL: databaseUrl }),
      ),
    );
    await Promise.all(services.map((service) => service.ready()));
    return services;
  }

  /** The process id, to read its memory from `/proc`. */
  get pid(): number {
    return this.child.pid!;
  }

  /** Waits until the API answers, failing early if the process dies. */
  async ready(timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) {
        throw new Error(`service exited early:\n${this.output.join('')}`);
      }
      try {
        const res = await fetch(`${this.baseUrl}/ping`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`service not ready after ${timeoutMs} ms:\n${this.output.join('')}`);
  }

  /** What the process printed, a line each. */
  get lines(): string[] {
    return this.output.join('').split('\n').filter(Boolean);
  }

  /** Resolves with the exit code, or the signal that ended the process. */
  async exited(timeoutMs = 30_000): Promise<number | NodeJS.Signals> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    if (this.child.signalCode !== null) return this.child.signalCode;
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const [code, signal] = (await once(this.child, 'exit')) as [
      number | null,
      NodeJS.Signals | null,
    ];
    clearTimeout(timer);
    return code ?? signal!;
  }

  /** Sends a signal without waiting for the process to end. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | NodeJS.Signals> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited();
  }
}
