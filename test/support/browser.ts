import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';

/** Debian's Chromium; a browser is never downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Quiet flags: without the background-networking ones Chromium keeps calling home, which a
 * closed network answers with a flood of failures.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  page: Page;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh, temporary profile (its `--user-data-dir`). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
  }
  const profile = await mkdtemp(join(tmpdir(), 'tributary-chromium-'));
  let context: BrowserContext | undefined;
  const close = async () => {
    await context?.close();
    await rm(profile, { recursive: true, force: true });
  };
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(15_000);
    return { page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
