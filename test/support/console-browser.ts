import AxeBuilder from '@axe-core/playwright';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Locator, Page, Request } from 'playwright-core';
import type { DrawnMap } from '../../web/src/segment-map/geometry';
import { Browser, launchChromium } from './browser';
import { ProxiedApp, startBehindProxy } from './proxied-app';
import { startTestApp, TestApp } from './test-app';

/** The application listening on a port of its own, for a browser to open. */
export async function listening(t: TestApp): Promise<string> {
  const server: Server = t.app.getHttpServer();
  if (!server.listening) await new Promise<void>((up) => server.listen(0, '127.0.0.1', up));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The real application (console included, as built) on a fresh database, on a port. */
export async function serveConsole(
  env: NodeJS.ProcessEnv = {},
): Promise<{ t: TestApp; baseUrl: string }> {
  const t = await startTestApp(env);
  return { t, baseUrl: await listening(t) };
}

/** The same behind a proxy to its database that the test can cut (an outage). */
export async function serveConsoleBehindProxy(
  env: NodeJS.ProcessEnv = {},
): Promise<ProxiedApp & { baseUrl: string }> {
  const proxied = await startBehindProxy(env);
  return { ...proxied, baseUrl: await listening(proxied.t) };
}

/** A browser on the console, noting what must never happen on a page: script errors, CSP refusals. */
export interface ConsoleBrowser extends Browser {
  /** Uncaught errors and Content-Security-Policy refusals, as the page reported them. */
  problems: string[];
  /** The API requests the page made, in order. */
  requests: Request[];
}

export async function openConsoleBrowser(): Promise<ConsoleBrowser> {
  const browser = await launchChromium();
  const problems: string[] = [];
  const requests: Request[] = [];
  browser.page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  browser.page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  browser.page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1/')) requests.push(request);
  });
  return { ...browser, problems, requests };
}

/** The API requests made since `start` whose path matches. */
export function requestsSince(
  browser: ConsoleBrowser,
  start: number,
  path: RegExp,
): { url: URL; request: Request }[] {
  return browser.requests
    .slice(start)
    .map((request) => ({ url: new URL(request.url()), request }))
    .filter(({ url }) => path.test(url.pathname));
}

/** axe-core's serious and critical findings on the page as it is now (none is the goal). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}

/** What {@link descriptionOf} reads of an element (the tests compile without the DOM's types). */
interface DescribedElement {
  getAttribute(name: string): string | null;
  ownerDocument: { getElementById(id: string): { textContent: string | null } | null };
}

/** The text a control's `aria-describedby` points at: its hint and its error, as read out. */
export async function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((element: DescribedElement) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id: string) => element.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** What the page's elements are to these helpers (the tests compile without the DOM's types). */
interface MapCanvas {
  segmentMap?: DrawnMap;
  width: number;
  clientWidth: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  };
}

/** The segment map's geometry as it was last drawn (once it has been). */
export async function drawnMap(page: Page, canvas: Locator): Promise<DrawnMap> {
  await canvas.waitFor();
  await mapDrawn(page);
  return canvas.evaluate((element: MapCanvas) => element.segmentMap!);
}

/** Waits until the page has drawn its segment map. */
export async function mapDrawn(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !!(
        globalThis as unknown as { document: { querySelector(s: string): MapCanvas | null } }
      ).document.querySelector('canvas')?.segmentMap,
  );
}

/** Whether the pixel in the middle of each drawn rectangle is painted (not the background). */
export function paintedRects(canvas: Locator): Promise<boolean[]> {
  return canvas.evaluate((element: MapCanvas) => {
    const { plot, rects } = element.segmentMap!;
    const ratio = element.width / element.clientWidth;
    const ctx = element.getContext('2d');
    return rects.map((r) => {
      const { data } = ctx.getImageData(
        Math.floor((plot.left + r.x + r.w / 2) * ratio),
        Math.floor((plot.top + r.y + r.h / 2) * ratio),
        1,
        1,
      );
      return data[0] + data[1] + data[2] < 3 * 250;
    });
  });
}

/** The element with the keyboard's focus: its tag, and its label or text. */
export function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as {
      document: {
        activeElement: {
          tagName: string;
          textContent: string | null;
          getAttribute(name: string): string | null;
        } | null;
      };
    };
    const element = document.activeElement;
    return `${element?.tagName ?? ''}:${element?.getAttribute('aria-label') ?? element?.textContent ?? ''}`;
  });
}

/** The main heading, once the screen shows it. */
export async function mainHeading(page: Page): Promise<string> {
  const heading = page.getByRole('heading', { level: 1 });
  await heading.waitFor();
  return (await heading.textContent()) ?? '';
}

/** One application serving the console and one browser on it, for a whole test file. */
export interface ConsoleSession {
  t: TestApp;
  baseUrl: string;
  browser: ConsoleBrowser;
  page: Page;
}

/** {@link serveConsole} and {@link openConsoleBrowser}, the page sized as a desktop screen. */
export async function openConsoleSession(env: NodeJS.ProcessEnv = {}): Promise<ConsoleSession> {
  const { t, baseUrl } = await serveConsole(env);
  const browser = await openConsoleBrowser();
  await browser.page.setViewportSize({ width: 1280, height: 900 });
  return { t, baseUrl, browser, page: browser.page };
}

/** Closes what {@link openConsoleSession} opened, as far as it got. */
export async function closeConsoleSession(session: Partial<ConsoleSession>): Promise<void> {
  await session.browser?.close();
  await session.t?.close();
}
