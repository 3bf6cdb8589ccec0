import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { chmod, chown, cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StartupError } from '../../startup/startup-error';
import { executable, findBinaries, PostgresBinaries } from './postgres-binaries';
import { Account, DirectoryMode, firstBlockedDirectory } from './reachability';

/** Where the embedded server's programs and files are, as the account running it can reach them. */
export interface ClusterPlacement {
  binaries: PostgresBinaries;
  /** The cluster's data directory (PGDATA). */
  clusterDir: string;
  /** Set when the cluster lives outside DATA_DIR, because the server could not reach DATA_DIR. */
  relocatedBecause?: string;
}

/** A file in DATA_DIR that says where the cluster lives when it could not live there. */
export const LOCATION_FILE = 'postgres.location';

const statOf = (directory: string): DirectoryMode | undefined => {
  try {
    return statSync(directory);
  } catch {
    return undefined;
  }
};

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${code}` : error instanceof Error ? error.message : String(error);
}

/** Creates DATA_DIR if needed and proves this process can write there. */
async function ensureWritable(dataDir: string): Promise<void> {
  const probe = join(dataDir, `.write-probe-${process.pid}`);
  try {
    await mkdir(dataDir, { recursive: true });
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    throw new StartupError(
      `DATA_DIR ${dataDir} is not writable (${describe(error)}): set DATA_DIR to a directory ` +
        `this user can write, or set DATABASE_URL to use a PostgreSQL server instead`,
    );
  }
}

/** Copies the binaries once per release into `sharedDir`, where every account may read them. */
async function shareBinaries(
  binaries: PostgresBinaries,
  sharedDir: string,
): Promise<PostgresBinaries> {
  const home = join(sharedDir, `postgres-${binaries.release}`);
  if (!existsSync(executable({ ...binaries, home }, 'postgres'))) {
    await mkdir(sharedDir, { recursive: true, mode: 0o755 });
    // Copied aside, then renamed: a copy interrupted halfway is never taken for a whole one.
    const staging = await mkdtemp(join(sharedDir, '.copy-'));
    await cp(binaries.home, staging, { recursive: true, verbatimSymlinks: true });
    await chmod(staging, 0o755);
    await rename(staging, home).catch(async (error: NodeJS.ErrnoException) => {
      await rm(staging, { recursive: true, force: true });
      // Another instance finished the same copy first.
      if (!existsSync(home)) throw error;
    });
  }
  return { ...binaries, home };
}

/**
 * Decides where the embedded server's binaries and cluster go. Started by root, the server runs
 * as an unprivileged account, which may not be able to enter the checkout (a home directory or
 * a `mktemp -d` directory is private): then the binaries are copied to, and the cluster kept in,
 * `sharedDir`, under a name derived from DATA_DIR, so that the same DATA_DIR finds its data
 * again after a restart. Nobody's own directories change their mode.
 */
export async function placeCluster(
  dataDir: string,
  account: Account | undefined,
  sharedDir: string,
): Promise<ClusterPlacement> {
  const root = resolve(dataDir);
  await ensureWritable(root);
  let binaries = findBinaries();
  let clusterDir = join(root, 'postgres');
  if (!account) return { binaries, clusterDir };

  const blockedAt = (path: string) => firstBlockedDirectory(path, account, statOf);
  const shared = resolve(sharedDir);
  const sharedBlocked = blockedAt(join(shared, 'x'));
  const needShared = (what: string, blocked: string) => {
    if (sharedBlocked) {
      throw new StartupError(
        `the embedded PostgreSQL runs as an unprivileged account that cannot enter ${blocked} ` +
          `to reach ${what}, nor ${sharedBlocked} to use EMBEDDED_FALLBACK_DIR ${shared}: set ` +
          `EMBEDDED_FALLBACK_DIR or DATA_DIR to a directory every user may enter, or set DATABASE_URL`,
      );
    }
  };

  const binariesBlocked = blockedAt(executable(binaries, 'postgres'));
  if (binariesBlocked) {
    needShared('its programs', binariesBlocked);
    binaries = await shareBinaries(binaries, shared);
  }

  let relocatedBecause: string | undefined;
  const dataBlocked = blockedAt(clusterDir);
  if (dataBlocked) {
    if (existsSync(clusterDir)) {
      throw new StartupError(
        `the embedded PostgreSQL cluster in ${clusterDir} cannot be reached by the account the ` +
          `server runs as: ${dataBlocked} is private to its owner; move DATA_DIR to a directory ` +
          `every user may enter, or run the service as an ordinary user`,
      );
    }
    needShared('DATA_DIR', dataBlocked);
    const key = createHash('sha256').update(root).digest('hex').slice(0, 16);
    clusterDir = join(shared, `data-${key}`, 'postgres');
    relocatedBecause = `${dataBlocked} is private to its owner`;
    await writeFile(
      join(root, LOCATION_FILE),
      `${clusterDir}\n# The embedded PostgreSQL keeps this DATA_DIR's cluster there: ${relocatedBecause}.\n`,
    );
  }
  await mkdir(clusterDir, { recursive: true, mode: 0o755 });
  await chown(clusterDir, account.uid, account.gid);
  await chmod(clusterDir, 0o700);
  return { binaries, clusterDir, relocatedBecause };
}
