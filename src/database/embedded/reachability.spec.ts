import { ancestors, DirectoryMode, firstBlockedDirectory, maySearch } from './reachability';

const postgres = { uid: 105, gid: 110 };
const rootOwned = (mode: number): DirectoryMode => ({ uid: 0, gid: 0, mode });

describe('who may enter a directory', () => {
  it('reads the owner, group or other search bit, whichever applies', () => {
    expect(maySearch(rootOwned(0o755), postgres)).toBe(true);
    expect(maySearch(rootOwned(0o700), postgres)).toBe(false);
    expect(maySearch(rootOwned(0o750), postgres)).toBe(false);
    expect(maySearch({ uid: 0, gid: 110, mode: 0o750 }, postgres)).toBe(true);
    expect(maySearch({ uid: 105, gid: 0, mode: 0o700 }, postgres)).toBe(true);
    // The owner's bits decide for the owner, even when "other" may enter.
    expect(maySearch({ uid: 105, gid: 0, mode: 0o077 }, postgres)).toBe(false);
    expect(maySearch(rootOwned(0o000), { uid: 0, gid: 0 })).toBe(true);
  });

  it('walks from the root down to the parent of a path', () => {
    expect(ancestors('/root/tributary/data')).toEqual(['/', '/root', '/root/tributary']);
    expect(ancestors('/data')).toEqual(['/']);
  });

  it('names the first directory on the way that blocks, skipping missing ones', () => {
    const tree: Record<string, DirectoryMode> = {
      '/': rootOwned(0o755),
      '/root': rootOwned(0o700),
      '/root/tributary': rootOwned(0o755),
      '/srv': rootOwned(0o755),
    };
    const statOf = (dir: string) => tree[dir];
    expect(firstBlockedDirectory('/root/tributary/data', postgres, statOf)).toBe('/root');
    expect(firstBlockedDirectory('/srv/new/deeper/data', postgres, statOf)).toBeUndefined();
    expect(firstBlockedDirectory('/root/tributary/data', { uid: 0, gid: 0 }, statOf)).toBe(
      undefined,
    );
  });
});
