import { Page } from 'playwright-core';
import {
  closeConsoleSession,
  ConsoleBrowser,
  openConsoleSession,
  seriousViolations,
} from './support/console-browser';
import { eventually } from './support/eventually';
import { uniqueName } from './support/factories';
import { coldReport, hotReport, RATE_POLICY } from './support/load-reports';
import { TestApp } from './support/test-app';

jest.setTimeout(120_000);

/**
 * A stream's recent scales by load on its screen, in the packaged Chromium: each with the rule
 * that made it, its time and epoch; the empty state; nothing for a fixed stream; a scale made
 * elsewhere shown by the change feed, without a reload. One application (console included, as
 * built) and one browser for the whole file.
 */
describe('Scales by load in the console (e2e, browser)', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    // No mutes: a segment just opened may scale at once.
    ({ t, baseUrl, browser, page } = await openConsoleSession({ AUTOSCALE_MUTE_MS: '0' }));
  });
  afterAll(() => closeConsoleSession({ t, browser }));
  afterEach(() => {
    // No script error and no Content-Security-Policy refusal.
    expect(browser.problems.splice(0)).toEqual([]);
  });

  const newStream = async (scalingPolicy: object): Promise<{ scope: string; path: string }> => {
    const scope = uniqueName('load');
    expect((await t.http.post('/v1/scopes').send({ scopeName: scope })).status).toBe(201);
    const created = await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: 'clicks', scalingPolicy });
    expect(created.status).toBe(201);
    return { scope, path: `/v1/scopes/${scope}/streams/clicks` };
  };
  const report = async (path: string, reports: object[]) => {
    const res = await t.http.post(`${path}/load`).send({ reports });
    expect(res.status).toBe(200);
  };
  const openStream = async (scope: string) => {
    await page.goto(`${baseUrl}/console/scopes/${scope}/streams/clicks`);
    await page.getByRole('heading', { level: 1, name: 'clicks', exact: true }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Description' }).waitFor();
  };
  const scalesTable = () => page.getByRole('table', { name: 'Automatic scales' });
  /** The table's rows as their cells' texts, the header left out. */
  const rows = (): Promise<string[][]> =>
    scalesTable()
      .getByRole('row')
      .evaluateAll((trs: { cells: ArrayLike<{ textContent: string | null }> }[]) =>
        trs.slice(1).map((tr) => Array.from(tr.cells, (cell) => cell.textContent ?? '')),
      );

  it('lists the scales with their rule, time and epoch, newest first, axe-clean', async () => {
    const { scope, path } = await newStream({ ...RATE_POLICY, minSegments: 1 });
    await report(path, [hotReport(0)]);
    await report(path, [coldReport(1), coldReport(2)]);
    await openStream(scope);

    await scalesTable().waitFor();
    const listed = await rows();
    expect(
      listed.map(([, epoch, scale, sealed, opened, by]) => [epoch, scale, sealed, opened, by]),
    ).toEqual([
      [
        '2',
        'segment 2: rates below 100, twenty-minute rate 5 < 100 / 2: 2 cold segments merged',
        '1, 2',
        '4',
        'anonymous',
      ],
      [
        '1',
        'segment 0: two-minute rate 620.5 > 5 x 100: split into 3',
        '0',
        '1, 2, 3',
        'anonymous',
      ],
    ]);
    // The time as the rest of the console writes it.
    expect(listed[0][0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('says when there is none yet, and shows a scale made elsewhere without a reload', async () => {
    const { scope, path } = await newStream({ ...RATE_POLICY, minSegments: 1 });
    await openStream(scope);
    const section = page.getByRole('region', { name: 'Automatic scales' });
    await section.getByText('No automatic scales yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const gets = () =>
      browser.requests.filter((r) => new URL(r.url()).pathname === `${path}/load`).length;
    const before = gets();
    await report(path, [hotReport(0)]);
    await scalesTable().waitFor({ timeout: 5_000 });
    expect(await eventually(async () => (await rows()).length, 1)).toBe(1);
    expect((await rows())[0][2]).toBe('segment 0: two-minute rate 620.5 > 5 x 100: split into 3');
    expect(gets()).toBe(before + 1);
    // The description follows too: the epoch the scale began.
    await page.getByText('Current epoch').waitFor();
    expect(await page.locator('dt:has-text("Current epoch") + dd').textContent()).toBe('1');

    // Reports that scale nothing write no event: the list is not read again.
    await report(path, [{ ...hotReport(1), since: Date.now() - 60_000 }]);
    await page.waitForTimeout(1_000);
    expect(gets()).toBe(before + 1);
  });

  it('shows nothing of scales by load for a stream of fixed segments', async () => {
    const { scope } = await newStream({ type: 'FIXED_NUM_SEGMENTS', minSegments: 2 });
    await openStream(scope);
    await page.getByRole('heading', { level: 2, name: 'Configuration' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Automatic scales' }).count()).toBe(0);
    expect(await page.getByText('No automatic scales yet').count()).toBe(0);
  });
});
