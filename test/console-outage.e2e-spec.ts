import { Page } from 'playwright-core';
import { ProxiedApp } from './support/proxied-app';
import {
  ConsoleBrowser,
  openConsoleBrowser,
  serveConsoleBehindProxy,
} from './support/console-browser';
import { uniqueName } from './support/factories';

jest.setTimeout(120_000);

/**
 * The console while the service cannot reach its database (503): reads say so once and are
 * tried again until they succeed; a change says so where it was asked for.
 */
describe('The console during a database outage (e2e, browser)', () => {
  let app: ProxiedApp & { baseUrl: string };
  let browser: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    app = await serveConsoleBehindProxy();
    browser = await openConsoleBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('says the service cannot reach its database, retrying, and shows the screen once it can', async () => {
    const scope = uniqueName('outage');
    expect((await app.t.http.post('/v1/scopes').send({ scopeName: scope })).status).toBe(201);
    await page.goto(`${app.baseUrl}/console/health`);
    await page.getByRole('heading', { level: 1, name: 'Health' }).waitFor();

    await app.proxy.cut();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Scopes' })
      .click();
    await page.getByText('The service cannot reach its database, retrying').waitFor();

    // A change is not retried by itself: it says why it failed, where it was asked for.
    await page.getByRole('textbox', { name: 'Scope name' }).fill(uniqueName('refused'));
    await page.getByRole('button', { name: 'Create scope' }).click();
    await page
      .getByRole('alert')
      .getByText('The service cannot reach its database: try again in a moment.')
      .waitFor();

    await app.proxy.restore();
    await page.getByRole('table', { name: 'Scopes' }).getByRole('link', { name: scope }).waitFor();
    await page.getByText('The service cannot reach its database, retrying').waitFor({
      state: 'detached',
    });
    expect(browser.problems).toEqual([]);
  });
});
