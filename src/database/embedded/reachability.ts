import { dirname, resolve } from 'node:path';

/** The part of a file's status that decides who may enter a directory. */
export interface DirectoryMode {
  uid: number;
  gid: number;
  mode: number;
}

/** The account a process runs as. */
export interface Account {
  uid: number;
  gid: number;
}

/** Whether `account` may enter (search) a directory with this owner and mode. */
export function maySearch(directory: DirectoryMode, account: Account): boolean {
  if (account.uid === 0) return true;
  if (directory.uid === account.uid) return (directory.mode & 0o100) !== 0;
  if (directory.gid === account.gid) return (directory.mode & 0o010) !== 0;
  return (directory.mode & 0o001) !== 0;
}

/** `/a/b/c` -> `/`, `/a`, `/a/b`: the directories one walks through to reach `path`. */
export function ancestors(path: string): string[] {
  const chain: string[] = [];
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dirname(dir) === dir) return chain;
  }
}

/**
 * The first existing directory on the way to `path` that `account` may not enter, if any.
 * Directories that do not exist yet are skipped: whoever creates them decides their mode.
 */
export function firstBlockedDirectory(
  path: string,
  account: Account,
  statOf: (directory: string) => DirectoryMode | undefined,
): string | undefined {
  return ancestors(path).find((directory) => {
    const status = statOf(directory);
    return status !== undefined && !maySearch(status, account);
  });
}
