import { execFileSync, spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/startup/free-port';
import { installedProgram } from './installed-program';
import { ProgramProcess } from './program-process';

/** Set (to its URL) while the tests reach their server through PgBouncer (`npm run test:pooler`). */
export const THROUGH_POOLER_ENV = 'TRIBUTARY_TEST_THROUGH_POOLER';

/** PgBouncer refuses to run as root: started by root, it runs as PostgreSQL's account. */
const ACCOUNT = 'postgres';

const canConnect = (port: number): Promise<boolean> =>
  new Promise((answer) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      answer(true);
    });
    socket.once('error', () => answer(false));
  });

/**
 * A PgBouncer of the test's own, in front of a PostgreSQL server, in transaction mode (the
 * mode that shares server sessions between clients) and otherwise as Debian installs it: no
 * startup parameter ignored, so a client that sends session settings is refused.
 */
export class PgBouncer {
  private constructor(
    private readonly program: ProgramProcess,
    readonly port: number,
  ) {}

  /** Starts it in front of the server of `serverUrl`, for every database, as that URL's user. */
  static async start(serverUrl: string): Promise<PgBouncer> {
    const server = new URL(serverUrl);
    const dir = await mkdtemp(join(tmpdir(), 'tributary-pgbouncer-'));
    await chmod(dir, 0o755);
    const port = await freePort();
    const users = join(dir, 'users.txt');
    const ini = join(dir, 'pgbouncer.ini');
    // Clients need no password; PgBouncer logs in to the server with the URL's.
    const user = decodeURIComponent(server.username) || 'postgres';
    await writeFile(users, `"${user}" "${decodeURIComponent(server.password)}"\n`, {
      mode: 0o600,
    });
    await writeFile(
      ini,
      [
        '[databases]',
        `* = host=${server.hostname} port=${server.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${users}`,
        'pool_mode = transaction',
        'max_client_conn = 2000',
        'default_pool_size = 20',
        'server_idle_timeout = 10',
        '',
      ].join('\n'),
    );
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', ACCOUNT]).toString());
      const gid = Number(execFileSync('id', ['-g', ACCOUNT]).toString());
      await chown(users, uid, gid);
    }
    const child = spawn(
      installedProgram('pgbouncer', 'pgbouncer'),
      [...(asRoot ? ['-u', ACCOUNT] : []), ini],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const program = new ProgramProcess(child, dir);
    await program.untilReady('pgbouncer', () => canConnect(port), 100);
    return new PgBouncer(program, port);
  }

  /** A PostgreSQL URL of the server behind it, rewritten to go through it. */
  route(url: string): string {
    const routed = new URL(url);
    routed.hostname = '127.0.0.1';
    routed.port = String(this.port);
    return routed.toString();
  }

  /** SIGTERM: PgBouncer's immediate shutdown; the tests that used it are done. */
  stop(): Promise<void> {
    return this.program.stop();
  }
}
