import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { StartupError } from '../../startup/startup-error';
import { Account } from './reachability';

const run = promisify(execFile);

/** PostgreSQL refuses to run as root: started by root, it runs as this account instead. */
export const SERVER_ACCOUNT = 'postgres';

async function idOf(name: string): Promise<Account> {
  const [uid, gid] = await Promise.all([
    run('id', ['-u', name]).then(({ stdout }) => Number(stdout.trim())),
    run('id', ['-g', name]).then(({ stdout }) => Number(stdout.trim())),
  ]);
  return { uid, gid };
}

/**
 * The account the embedded server runs as: undefined when this process is not root (the server
 * runs as this process's user), else the `postgres` account, created if the machine has none.
 */
export async function serverAccount(): Promise<Account | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  try {
    return await idOf(SERVER_ACCOUNT);
  } catch {
    // No such account yet.
  }
  try {
    await run('groupadd', ['--system', SERVER_ACCOUNT]).catch(() => undefined);
    await run('useradd', ['--system', '--no-create-home', '-g', SERVER_ACCOUNT, SERVER_ACCOUNT]);
    return await idOf(SERVER_ACCOUNT);
  } catch (error) {
    throw new StartupError(
      `the embedded PostgreSQL cannot run as root and there is no "${SERVER_ACCOUNT}" account ` +
        `to run it as (creating one failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}): ` +
        `create it (useradd ${SERVER_ACCOUNT}), run the service as an ordinary user, or set DATABASE_URL`,
    );
  }
}
