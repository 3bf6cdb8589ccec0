import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where Debian's packages put programs, besides the PATH. */
const SYSTEM_DIRS = ['/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin'];

/**
 * The path of the program `name` (from Debian's package `debianPackage`) in `dirs`: the PATH,
 * then where Debian installs it. A missing one fails with how to install it.
 */
export function installedProgram(
  name: string,
  debianPackage: string,
  dirs: string[] = [...(process.env.PATH ?? '').split(delimiter), ...SYSTEM_DIRS],
): string {
  const found = dirs
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(`${name} is not installed (apt-get install -y ${debianPackage})`);
  }
  return found;
}
