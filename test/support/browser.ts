import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BrowserContext, chromium, Page } from 'playwright-core';

const run = promisify(execFile);

/** Browsers a machine may already have, most likely first. */
const SYSTEM_BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/**
 * Quiet flags: without the background-networking ones Chromium keeps calling home, which a
 * closed network answers with a flood of failures.
 */
const QUIET_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserBinary {
  executablePath: string;
  args: string[];
  /** Where it came from, for the test's own log. */
  source: 'CHROME_PATH' | 'system' | '@sparticuz/chromium';
}

/**
 * CHROME_PATH if set, else a Chromium or Chrome the machine has, else the headless Chromium
 * shipped inside the `@sparticuz/chromium` package (extracted on first use): a fresh machine with
 * only Node and npm runs the browser tests too, and no browser is ever downloaded.
 */
export async function findBrowser(env: NodeJS.ProcessEnv = process.env): Promise<BrowserBinary> {
  if (env.CHROME_PATH) {
    if (!existsSync(env.CHROME_PATH)) {
      throw new Error(`CHROME_PATH is ${env.CHROME_PATH}, which does not exist`);
    }
    return { executablePath: env.CHROME_PATH, args: QUIET_ARGS, source: 'CHROME_PATH' };
  }
  const system = SYSTEM_BROWSERS.find((path) => existsSync(path));
  if (system) return { executablePath: system, args: QUIET_ARGS, source: 'system' };
  return packagedBrowser();
}

/**
 * Asks the package (an ES module, which jest's module system would have to transform) in a
 * plain node process where it put the browser and which flags it wants.
 */
const ASK_PACKAGE = `import('@sparticuz/chromium').then(async ({ default: c }) =>
  process.stdout.write(JSON.stringify({ path: await c.executablePath(), args: c.args })))`;

/**
 * The headless Chromium inside the `@sparticuz/chromium` package, extracted on first use into
 * the temporary directory: one of this user's own, since another user's extraction (root's in
 * `/tmp/chromium`, say) is not this user's to run. The package extracts where it is told, and
 * takes a browser it finds there as whole: the first extraction is made aside and moved into
 * place in one rename, so that tests starting together (one per worker) never launch a browser
 * another is still writing (`spawn ETXTBSY`).
 */
export async function packagedBrowser(): Promise<BrowserBinary> {
  const extractTo = join(tmpdir(), `tributary-chromium-${process.getuid?.() ?? 'user'}`);
  if (!existsSync(join(extractTo, 'chromium'))) {
    const aside = await mkdtemp(`${extractTo}-extracting-`);
    await askPackage(aside);
    // Another worker may have moved its own there first: then this one is not needed.
    await rename(aside, extractTo).catch(() => rm(aside, { recursive: true, force: true }));
  }
  const packaged = await askPackage(extractTo);
  return {
    executablePath: packaged.path,
    args: [...packaged.args, ...QUIET_ARGS.filter((arg) => !packaged.args.includes(arg))],
    source: '@sparticuz/chromium',
  };
}

/** Where the package puts its browser when told to extract into `into`, and its flags. */
async function askPackage(into: string): Promise<{ path: string; args: string[] }> {
  const { stdout } = await run(process.execPath, ['-e', ASK_PACKAGE], {
    cwd: __dirname,
    env: { ...process.env, TMPDIR: into },
  });
  return JSON.parse(stdout) as { path: string; args: string[] };
}

export interface Browser {
  page: Page;
  binary: BrowserBinary;
  close(): Promise<void>;
}

/**
 * Times a browser is started before its failure is the test's: on two loaded cores, the packaged
 * single-process Chromium now and then dies of SIGSEGV as it starts, before any page is open.
 */
const LAUNCH_ATTEMPTS = 3;

/** Headless Chromium on a fresh, temporary profile (its `--user-data-dir`). */
export async function launchChromium(binary?: BrowserBinary): Promise<Browser> {
  binary ??= await findBrowser();
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchOnce(binary);
    } catch (error) {
      if (attempt === LAUNCH_ATTEMPTS) throw error;
    }
  }
}

async function launchOnce(chosen: BrowserBinary): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'tributary-chromium-'));
  let context: BrowserContext | undefined;
  const close = async () => {
    await context?.close();
    await rm(profile, { recursive: true, force: true });
  };
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chosen.executablePath,
      headless: true,
      args: chosen.args,
      // A POSIX locale (LANG=C) otherwise reaches pages as `en-US@posix`, which Intl refuses.
      locale: 'en-US',
      timeout: 30_000,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(15_000);
    return { page, binary: chosen, close };
  } catch (error) {
    await close();
    throw error;
  }
}
