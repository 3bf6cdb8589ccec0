import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');

export interface CheckoutCopy {
  /** The private directory (mode 0700, as `mktemp -d` makes it) that holds the checkout. */
  home: string;
  /** The checkout: the built service, its dependencies and package.json. */
  dir: string;
  main: string;
  remove(): Promise<void>;
}

/**
 * The built checkout as a new user would have it in a private directory: hard links (`cp -al`)
 * make the copy fast and keep file modes; the directories are new, with the usual modes.
 */
export async function copyCheckout(without: string[] = []): Promise<CheckoutCopy> {
  const home = await mkdtemp(join(tmpdir(), 'tributary-checkout-'));
  const dir = join(home, 'tributary');
  await run('mkdir', [dir]);
  await run('cp', ['-al', 'dist', 'node_modules', 'package.json', dir], { cwd: ROOT });
  for (const path of without) await rm(join(dir, path), { recursive: true, force: true });
  return {
    home,
    dir,
    main: join(dir, 'dist/src/main.js'),
    remove: () => rm(home, { recursive: true, force: true }),
  };
}
