import {
  appendFile,
  chmod,
  chown,
  copyFile,
  mkdtemp,
  readFile,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres } from '../src/database/embedded-postgres';
import { failedStart } from './support/failed-start';
import { freePort, ServiceProcess } from './support/service-process';
import { privateAuthority } from './support/tls';

jest.setTimeout(120_000);

/**
 * Turns TLS on in a stopped embedded cluster, with a certificate of the test's own authority,
 * and lets nothing but encrypted connections reach the service's database, as managed
 * PostgreSQL services do.
 */
async function requireTls(clusterDir: string, certFile: string, keyFile: string): Promise<void> {
  const owner = await stat(clusterDir);
  for (const [from, to] of [
    [certFile, 'server.crt'],
    [keyFile, 'server.key'],
  ]) {
    await copyFile(from, join(clusterDir, to));
    await chown(join(clusterDir, to), owner.uid, owner.gid);
    await chmod(join(clusterDir, to), 0o600);
  }
  await appendFile(
    join(clusterDir, 'postgresql.conf'),
    "\nssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n",
  );
  // Plain connections only to `postgres`, where EmbeddedPostgres itself checks its database.
  await writeFile(
    join(clusterDir, 'pg_hba.conf'),
    'host postgres all 127.0.0.1/32 scram-sha-256\nhostssl all all 127.0.0.1/32 scram-sha-256\n',
  );
}

describe('TLS to PostgreSQL (e2e: the embedded server with TLS on)', () => {
  let dir: string;
  let server: EmbeddedPostgres;
  /** The server's database, without any TLS parameter. */
  let plain: URL;
  let ca: string;
  let authorityDir: string;

  const withParams = (params: Record<string, string>): string => {
    const url = new URL(plain);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.toString();
  };

  beforeAll(async () => {
    const authority = await privateAuthority();
    ca = authority.caFile;
    authorityDir = authority.dir;
    dir = await mkdtemp(join(tmpdir(), 'tributary-tls-db-'));
    await chmod(dir, 0o755);
    server = new EmbeddedPostgres(dir, { log: () => undefined, error: () => undefined });
    await server.start();
    await server.stop();
    await requireTls(server.clusterDir!, authority.certFile, authority.keyFile);
    plain = new URL(await server.start());
  });
  afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
    await rm(authorityDir, { recursive: true, force: true });
  });

  it('with sslmode=verify-full and the authority in sslrootcert: starts, and every connection is encrypted', async () => {
    const url = withParams({ sslmode: 'verify-full', sslrootcert: ca });
    const service = ServiceProcess.start({ PORT: String(await freePort()), DATABASE_URL: url });
    const sql = new Client({
      connectionString: plain.toString(),
      ssl: { ca: await readFile(ca, 'utf8') },
    });
    try {
      await service.ready();
      const created = await fetch(`${service.baseUrl}/v1/scopes`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ scopeName: 'encrypted' }),
      });
      expect(created.status).toBe(201);
      await sql.connect();
      const sessions = await sql.query<{ ssl: boolean; sessions: number }>(
        `SELECT s.ssl, count(*)::int AS sessions FROM pg_stat_ssl s
           JOIN pg_stat_activity a USING (pid)
          WHERE a.application_name = 'tributary' GROUP BY s.ssl`,
      );
      expect(sessions.rows).toEqual([{ ssl: true, sessions: expect.any(Number) }]);
    } finally {
      await sql.end().catch(() => undefined);
      await service.stop();
    }
  });

  it('without TLS, against a server that accepts only encrypted connections', async () => {
    const line = await failedStart({ DATABASE_URL: plain.toString() });
    expect(line).toMatch(
      new RegExp(
        `^cannot start: the PostgreSQL server at 127\\.0\\.0\\.1:${plain.port} accepts only ` +
          'encrypted connections \\(no pg_hba\\.conf entry for host "127\\.0\\.0\\.1", user ' +
          '"tributary", database "tributary", no encryption\\): add ' +
          'sslmode=verify-full&sslrootcert=/path/to/ca\\.pem to DATABASE_URL$',
      ),
    );
  });

  it.each([
    ['verify-full', {}],
    // This driver's `require` verifies the certificate as verify-full does; its warning about
    // that is the driver's own, left out here so the lines stay JSON.
    ['require', { NODE_NO_WARNINGS: '1' }],
  ])(
    'with sslmode=%s but no sslrootcert: the certificate is not trusted, said once',
    async (sslmode, env) => {
      const line = await failedStart({ DATABASE_URL: withParams({ sslmode }), ...env });
      expect(line).toBe(
        `cannot start: the PostgreSQL server at 127.0.0.1:${plain.port} presented a ` +
          'certificate that no authority this service trusts has signed ' +
          "(UNABLE_TO_VERIFY_LEAF_SIGNATURE): name the authority's certificate in DATABASE_URL " +
          'with sslrootcert=/path/to/ca.pem (every sslmode but no-verify checks the certificate)',
      );
    },
  );

  it('with an sslrootcert that cannot be read', async () => {
    const missing = join(dir, 'no-such-ca.pem');
    const line = await failedStart({
      DATABASE_URL: withParams({ sslmode: 'verify-full', sslrootcert: missing }),
    });
    expect(line).toBe(
      `cannot start: the file sslrootcert=${missing} of DATABASE_URL cannot be read (ENOENT): ` +
        'fix the path, or let this user read the file',
    );
  });

  it('with sslmode against a server that has no TLS', async () => {
    // A server that answers the driver's request for TLS with "N", as PostgreSQL with ssl off.
    const noTls: Server = createServer((socket) => {
      socket.once('data', () => socket.write('N'));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((listening) => noTls.listen(0, '127.0.0.1', listening));
    const port = (noTls.address() as { port: number }).port;
    try {
      const line = await failedStart({
        DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/tributary?sslmode=verify-full`,
      });
      expect(line).toBe(
        `cannot start: the PostgreSQL server at 127.0.0.1:${port} does not accept TLS ` +
          'connections: turn ssl on in its configuration, or remove sslmode from DATABASE_URL',
      );
    } finally {
      await new Promise((closed) => noTls.close(closed));
    }
  });
});
