import { Page } from 'playwright-core';
import { ApiClient } from './support/api-client';
import { ConsoleBrowser, openConsoleBrowser, requestsSince } from './support/console-browser';
import { uniqueName } from './support/factories';
import { recordFigure } from './support/figures';
import { ServiceProcess } from './support/service-process';
import { TcpCutter, tcpCutter } from './support/tcp-cutter';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(180_000);

/**
 * The console follows the change feed: changes made elsewhere (here through a second instance
 * of the service, on the same database) show without a reload, also after the page's
 * connection was lost. The browser reaches its instance through a forwarder the test can cut.
 */
describe('The console, live (e2e, browser, two instances)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let services: ServiceProcess[];
  let elsewhere: ApiClient;
  let cutter: TcpCutter;
  let browser: ConsoleBrowser;
  let page: Page;
  /** How long each change took to show, from the answer of the change to the page showing it. */
  const shownAfterMs: number[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    services = await ServiceProcess.instances(database.url);
    elsewhere = new ApiClient(services[1].baseUrl);
    cutter = await tcpCutter(new URL(services[0].baseUrl));
    browser = await openConsoleBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    if (shownAfterMs.length > 0)
      recordFigure('console live: slowest change shown, ms', Math.max(...shownAfterMs));
    await browser?.close();
    await cutter?.close();
    await Promise.all((services ?? []).map((service) => service.stop()));
    await database?.drop();
  });
  afterEach(() => {
    expect(browser.problems).toEqual([]);
    expect(elsewhere.serverErrors()).toEqual([]);
  });

  /** Makes a change elsewhere, and waits until the page shows it (no reload). */
  async function shows(change: () => Promise<unknown>, shown: () => Promise<void>) {
    const navigations: string[] = [];
    const noted = (frame: { url: () => string }) => navigations.push(frame.url());
    page.on('framenavigated', noted);
    await change();
    const answered = Date.now();
    await shown();
    shownAfterMs.push(Date.now() - answered);
    page.off('framenavigated', noted);
    expect(navigations).toEqual([]);
  }

  const live = () => page.getByRole('banner').getByText('Live', { exact: true });

  it('shows scopes and streams created and deleted through another instance', async () => {
    await page.goto(`${cutter.baseUrl}/console/`);
    await page.getByRole('heading', { level: 1, name: 'Scopes' }).waitFor();
    await live().waitFor();
    // The screen's own read answered first: a change made before it would show without the feed.
    const scopes = page.getByRole('table', { name: 'Scopes' });
    await scopes.waitFor();

    const scope = uniqueName('live');
    await shows(
      async () =>
        expect((await elsewhere.call('POST', '/v1/scopes', { scopeName: scope })).status).toBe(201),
      () => scopes.getByRole('link', { name: scope }).waitFor(),
    );

    await scopes.getByRole('link', { name: scope }).click();
    await page.getByRole('heading', { level: 1, name: scope }).waitFor();
    const streams = page.getByRole('table', { name: 'Streams' });
    await streams.waitFor();
    await shows(
      async () =>
        expect(
          (
            await elsewhere.call('POST', `/v1/scopes/${scope}/streams`, {
              streamName: 'orders',
              scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
            })
          ).status,
        ).toBe(201),
      () => streams.getByRole('link', { name: 'orders' }).waitFor(),
    );
    await shows(
      async () =>
        expect(
          (
            await elsewhere.call('PUT', `/v1/scopes/${scope}/streams/orders/state`, {
              streamState: 'SEALED',
            })
          ).status,
        ).toBe(200),
      () =>
        streams
          .getByRole('row', { name: /orders/ })
          .getByText('SEALED')
          .waitFor(),
    );
    await shows(
      async () =>
        expect((await elsewhere.call('DELETE', `/v1/scopes/${scope}/streams/orders`)).status).toBe(
          204,
        ),
      () => streams.getByRole('link', { name: 'orders' }).waitFor({ state: 'detached' }),
    );
  });

  it("redraws a stream's segments when it is scaled elsewhere", async () => {
    const scope = uniqueName('live');
    expect((await elsewhere.call('POST', '/v1/scopes', { scopeName: scope })).status).toBe(201);
    expect(
      (
        await elsewhere.call('POST', `/v1/scopes/${scope}/streams`, {
          streamName: 'clicks',
          scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
        })
      ).status,
    ).toBe(201);
    await page.goto(`${cutter.baseUrl}/console/scopes/${scope}/streams/clicks`);
    await page.getByRole('heading', { level: 1, name: 'clicks' }).waitFor();
    await live().waitFor();
    await page.getByRole('button', { name: 'Show as table' }).click();
    const segments = page.getByRole('table', { name: 'Segments' });
    await segments.getByRole('row', { name: /\[0\.5, 1\)/ }).waitFor();

    await shows(
      async () =>
        expect(
          (
            await elsewhere.call('POST', `/v1/scopes/${scope}/streams/clicks/scale`, {
              sealedSegments: [1],
              newRanges: [
                { keyStart: 0.5, keyEnd: 0.75 },
                { keyStart: 0.75, keyEnd: 1 },
              ],
            })
          ).status,
        ).toBe(200),
      () => segments.getByRole('row', { name: /\[0\.75, 1\)/ }).waitFor(),
    );
  });

  it('resumes after its connection is lost, from the last event it saw, missing nothing', async () => {
    await page.goto(`${cutter.baseUrl}/console/`);
    await live().waitFor();
    // Read before the change, the list shows it only once the feed told it: the page has then
    // seen its event, the last one, and resumes from there.
    const scopes = page.getByRole('table', { name: 'Scopes' });
    await scopes.waitFor();
    const before = uniqueName('seen');
    await elsewhere.call('POST', '/v1/scopes', { scopeName: before });
    await scopes.getByRole('link', { name: before }).waitFor();
    const { body } = await elsewhere.call('GET', '/v1/events');
    const lastSeen = (body as { position: string }).position;

    const start = browser.requests.length;
    cutter.cut();
    const missed = uniqueName('missed');
    await shows(
      async () =>
        expect((await elsewhere.call('POST', '/v1/scopes', { scopeName: missed })).status).toBe(
          201,
        ),
      () => scopes.getByRole('link', { name: missed }).waitFor(),
    );
    const resumed = requestsSince(browser, start, /^\/v1\/events$/);
    expect(resumed.length).toBeGreaterThan(0);
    expect(await resumed[0].request.headerValue('last-event-id')).toEqual(lastSeen);
    await live().waitFor();
  });
});
