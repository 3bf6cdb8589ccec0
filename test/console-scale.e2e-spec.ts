import { Client } from 'pg';
import { Page } from 'playwright-core';
import { seedHistory, seedStreams } from '../bench/support/database';
import {
  ConsoleBrowser,
  drawnMap,
  mapDrawn,
  openConsoleBrowser,
  requestsSince,
} from './support/console-browser';
import { eventually } from './support/eventually';
import { recordFigure } from './support/figures';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(300_000);

const STREAMS = 100_000;
const EPOCHS = 10_000;

/**
 * The console at the sizes its users complain about elsewhere: a scope of 100,000 streams and a
 * stream of 10,000 epochs, served by the built service in a process of its own (so that the
 * figures are the service's, not those of a service sharing jest's process). What it asks the
 * API for is asserted; how long it takes is measured in the browser and reported
 * (test-output/figures.jsonl), not asserted.
 */
describe('The console at scale (e2e, browser, built service)', () => {
  let database: { url: string; drop(): Promise<void> };
  let service: ServiceProcess;
  let baseUrl: string;
  let browser: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    database = await createTestDatabase();
    service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
    });
    await service.ready();
    baseUrl = service.baseUrl;
    // The rows as the service writes them, in a few set-based statements.
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await seedStreams(client, 'big', STREAMS);
      await seedHistory(client, 'history', 'long', EPOCHS, Date.now() - EPOCHS * 1000 - 60_000);
    } finally {
      await client.end();
    }
    browser = await openConsoleBrowser();
    page = browser.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    // The page's files in the browser's cache, as for anyone who opened the console before.
    await page.goto(`${baseUrl}/console/health`);
    await page.getByRole('heading', { level: 1, name: 'Health' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await database?.drop();
  });
  afterEach(() => {
    expect(browser.problems.splice(0)).toEqual([]);
  });

  it('opens a scope of 100,000 streams on its first page, reading details for those rows only', async () => {
    const start = browser.requests.length;
    const opened = Date.now();
    await page.goto(`${baseUrl}/console/scopes/big`);
    const table = page.getByRole('table', { name: 'Streams', exact: true });
    await table.getByRole('link', { name: 'stream-000050' }).waitFor();
    const firstPageMs = Date.now() - opened;
    expect(await eventually(() => table.getByText('…').count(), 0)).toBe(0);
    const withStates = Date.now() - opened;
    recordFigure('console: 100,000-stream scope, first page shown (ms)', firstPageMs);
    recordFigure('console: 100,000-stream scope, first page with every state (ms)', withStates);
    console.log(`100,000-stream scope: first page ${firstPageMs} ms, with states ${withStates} ms`);

    expect(await table.locator('tbody tr').count()).toBe(50);
    const lists = requestsSince(browser, start, /^\/v1\/scopes\/big\/streams$/);
    expect(lists.map(({ url }) => url.searchParams.get('limit'))).toEqual(['50']);
    expect(requestsSince(browser, start, /\/description$/)).toHaveLength(50);

    // The next page is one more page of the API, and 50 more details.
    const next = Date.now();
    await page.getByRole('button', { name: 'Next page' }).click();
    await table.getByRole('link', { name: 'stream-000100' }).waitFor();
    recordFigure('console: 100,000-stream scope, next page shown (ms)', Date.now() - next);
    expect(await eventually(() => table.getByText('…').count(), 0)).toBe(0);
    expect(requestsSince(browser, start, /^\/v1\/scopes\/big\/streams$/)).toHaveLength(2);
    expect(requestsSince(browser, start, /\/description$/)).toHaveLength(100);
  });

  it('draws a stream of 10,000 epochs and stays responsive', async () => {
    const start = browser.requests.length;
    const opened = Date.now();
    await page.goto(`${baseUrl}/console/scopes/history/streams/long`);
    const canvas = page.getByRole('application', { name: /^Segment map of/ });
    await mapDrawn(page);
    const shownMs = Date.now() - opened;
    const drawn = await drawnMap(page, canvas);
    // In the page's own timeline, which starts with the navigation.
    const [drawnAtMs, drawMs] = await page.evaluate(() => {
      const entries = performance.getEntriesByName('segment-map:draw');
      const last = entries[entries.length - 1];
      return [last.startTime + last.duration, last.duration];
    });
    recordFigure('console: 10,000-epoch map, navigation to drawn, in the page (ms)', drawnAtMs);
    recordFigure('console: 10,000-epoch map, opened to drawn (ms)', shownMs);
    recordFigure('console: 10,000-epoch map, one drawing (ms)', drawMs);

    // Every segment of the history is a rectangle, and the events came in pages of 1,000.
    expect(drawn.rects).toHaveLength(EPOCHS * 1.5);
    const pages = requestsSince(browser, start, /\/scaling-events$/);
    expect(pages).toHaveLength(EPOCHS / 1000);
    const timings = pages.map(({ request }) => request.timing());
    const loadMs =
      timings[timings.length - 1].startTime +
      timings[timings.length - 1].responseEnd -
      timings[0].startTime;
    recordFigure('console: 10,000-epoch map, its 10 pages of events loaded (ms)', loadMs);

    // Responsive: a key moves the focus and the details follow, the map drawn again each time.
    await canvas.focus();
    const details = page.getByRole('region', { name: 'Segment in focus' });
    await details.getByRole('term').first().waitFor();
    const moved = Date.now();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    const segment = details
      .getByRole('term')
      .filter({ hasText: /^Segment$/ })
      .locator('xpath=following-sibling::dd[1]');
    // Segments alternate one, then two: the tenth successor of segment 0 is segment 15.
    expect(await eventually(() => segment.textContent(), '15')).toBe('15');
    const perKeyMs = (Date.now() - moved) / 10;
    const redraws = await page.evaluate(() =>
      performance.getEntriesByName('segment-map:draw').map((entry) => entry.duration),
    );
    recordFigure('console: 10,000-epoch map, arrow key to details (ms per key)', perKeyMs);
    recordFigure('console: 10,000-epoch map, slowest drawing (ms)', Math.max(...redraws));
    console.log(
      `10,000-epoch map: opened to drawn ${shownMs} ms (in the page ${drawnAtMs.toFixed(0)} ms; ` +
        `events loaded in ${loadMs.toFixed(0)} ms), ` +
        `drawing ${drawMs.toFixed(1)} ms, ` +
        `${perKeyMs.toFixed(0)} ms per arrow key, slowest drawing ${Math.max(...redraws).toFixed(1)} ms`,
    );
  });
});
