// @ts-check
/**
 * The project's build: the service (`nest build`, into dist/) and then the console (`vite build`,
 * into dist/console), each only when its inputs changed since it was last built. What was built
 * from which inputs is kept in dist/build-inputs.json as a digest of every input file's path
 * and content, so an unchanged checkout starts without building (`npm start` runs this first),
 * while an edit, a checkout of another commit, a new lockfile or a deleted output rebuilds.
 *
 * `node scripts/build.mjs --force` builds both whatever the digests say.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(ROOT, 'dist/build-inputs.json');

/** Tests are not built into either output: changing one rebuilds nothing. */
const NOT_AN_INPUT = /\.spec\.tsx?$/;

/**
 * @typedef {{ name: string, inputs: string[], output: string, command: string[], executables?: string[] }} Stage
 * @type {Stage[]}
 * The service comes first: `nest build` empties dist/, the console's output included, which
 * the console's stage then sees missing and rebuilds.
 */
const STAGES = [
  {
    name: 'service',
    inputs: ['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'],
    output: 'dist/src/main.js',
    command: ['node_modules/@nestjs/cli/bin/nest.js', 'build'],
    // The package's bin: `npx tributary` in a checkout runs the file itself, which a build
    // writes as a plain file.
    executables: ['dist/src/cli/main.js'],
  },
  {
    name: 'console',
    inputs: ['web'],
    output: 'dist/console/index.html',
    command: ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.mts'],
  },
];

/**
 * Every file under `path` (a file or a folder), sorted, tests left out.
 * @param {string} path
 * @returns {string[]}
 */
function filesOf(path) {
  const absolute = join(ROOT, path);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [path];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !NOT_AN_INPUT.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * A digest of the stage's input files (paths and contents) and of the installed packages.
 * @param {Stage} stage
 */
function digestOf(stage) {
  const hash = createHash('sha256');
  for (const file of [...stage.inputs.flatMap(filesOf), 'package-lock.json']) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** @returns {Record<string, string>} each stage's digest when it was last built */
function readStamp() {
  try {
    /** @type {unknown} */
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
    if (typeof stamp !== 'object' || stamp === null) return {};
    return Object.fromEntries(Object.entries(stamp).filter(([, v]) => typeof v === 'string'));
  } catch {
    return {};
  }
}

const force = process.argv.includes('--force');
const stamp = readStamp();
for (const stage of STAGES) {
  const digest = digestOf(stage);
  if (!force && stamp[stage.name] === digest && existsSync(join(ROOT, stage.output))) {
    process.stdout.write(`build: ${stage.name} is up to date\n`);
    continue;
  }
  const started = Date.now();
  const [script, ...args] = stage.command;
  const run = spawnSync(process.execPath, [join(ROOT, script), ...args], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
  for (const file of stage.executables ?? []) chmodSync(join(ROOT, file), 0o755);
  // Read again: the service's build empties dist/, and with it the stamp.
  writeFileSync(STAMP, JSON.stringify({ ...readStamp(), [stage.name]: digest }, null, 2));
  process.stdout.write(`build: ${stage.name} built in ${Date.now() - started} ms\n`);
}
