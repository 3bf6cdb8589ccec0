import { Page } from 'playwright-core';
import { basic, PASSWORD, writeAccounts } from './support/accounts';
import {
  ConsoleBrowser,
  openConsoleBrowser,
  requestsSince,
  seriousViolations,
} from './support/console-browser';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(120_000);

const ACCOUNTS = {
  admin: 'prn::*,READ_UPDATE',
  /** Reads the scope `sales` and everything in it, and nothing else. */
  reader: 'prn::/scope:sales,READ;prn::/scope:sales/*,READ',
};

/**
 * Signing in to the console with authentication on (HTTP Basic): asked for at any address,
 * kept in the page's memory only, signed out, a 401 back to sign-in, a 403 naming the
 * permission. The built service, in a process of its own (its accounts are read at start).
 */
describe('Signing in to the console (e2e, built service)', () => {
  let database: { url: string; drop(): Promise<void> };
  let port: number;
  let service: ServiceProcess;
  let browser: ConsoleBrowser;
  let page: Page;

  const start = async (accounts: Record<string, string>) => {
    service = ServiceProcess.start({
      PORT: String(port),
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: await writeAccounts(accounts),
    });
    await service.ready();
  };
  /** Creates something through the API as the admin, as another client would. */
  const createAsAdmin = (path: string, body: object) =>
    fetch(`${service.baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: basic('admin'), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const signIn = async (user: string, password = PASSWORD) => {
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByRole('textbox', { name: 'User' }).fill(user);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    port = await freePort();
    await start(ACCOUNTS);
    const created = await createAsAdmin(`/v1/scopes`, { scopeName: 'sales' });
    expect(created.status).toBe(201);
    browser = await openConsoleBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await database?.drop();
  });
  afterEach(() => {
    expect(browser.problems.splice(0)).toEqual([]);
  });

  it('asks for a user and password at any address, then shows that screen', async () => {
    await page.goto(`${service.baseUrl}/console/scopes/sales`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await signIn('admin', 'not-the-password');
    await page.getByText('The service refused this user and password.').waitFor();

    const since = browser.requests.length;
    await signIn('admin');
    await page.getByRole('heading', { level: 1, name: 'sales' }).waitFor();
    expect(new URL(page.url()).pathname).toEqual('/console/scopes/sales');
    await page.getByText('Signed in as admin').waitFor();
    const sent = requestsSince(browser, since, /^\/v1\//);
    const headers = await Promise.all(
      sent.map(({ request }) => request.headerValue('authorization')),
    );
    expect(headers).toEqual(sent.map(() => basic('admin')));
  });

  it('keeps the credentials in the page only: no storage, no cookie, gone after a reload', async () => {
    await page.goto(`${service.baseUrl}/console`);
    await signIn('admin');
    await page.getByRole('heading', { level: 1, name: 'Scopes' }).waitFor();
    expect(
      await page.evaluate(() => {
        const { localStorage, sessionStorage, document } = globalThis as unknown as {
          localStorage: { length: number };
          sessionStorage: { length: number };
          document: { cookie: string };
        };
        return [localStorage.length, sessionStorage.length, document.cookie];
      }),
    ).toEqual([0, 0, '']);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  });

  it('signs out, back to the sign-in form at the same address', async () => {
    await page.goto(`${service.baseUrl}/console/health`);
    await signIn('admin');
    await page.getByRole('heading', { level: 1, name: 'Health' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByText('You signed out.').waitFor();
    expect(new URL(page.url()).pathname).toEqual('/console/health');
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  });

  it('names the permission a 403 says is missing, where it was refused', async () => {
    await page.goto(`${service.baseUrl}/console`);
    await signIn('reader');
    await page
      .getByText(
        'You may not do this: it needs READ (read) on the root (the list of scopes) (prn::/). ' +
          'No entry of your access names the root (the list of scopes).',
      )
      .waitFor();

    await page.goto(`${service.baseUrl}/console/scopes/sales`);
    await signIn('reader');
    await page.getByRole('heading', { level: 1, name: 'sales' }).waitFor();
    await page.getByRole('button', { name: 'Delete scope' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete scope' }).click();
    // Deleting a scope is a change of the root's list of scopes.
    await page
      .getByText(
        'You may not do this: it needs READ_UPDATE (read and change) on the root (the list of scopes) (prn::/).',
      )
      .waitFor();
    await page.goto(`${service.baseUrl}/console/scopes/sales`);
    await signIn('reader');
    const form = page.getByRole('form', { name: 'Create stream' });
    await form.getByRole('textbox', { name: 'Stream name' }).fill('refused');
    await form.getByRole('button', { name: 'Create stream' }).click();
    await form
      .getByText(
        'You may not do this: it needs READ_UPDATE (read and change) on scope sales ' +
          '(prn::/scope:sales). For scope sales, the first entry of your access that names it ' +
          'is prn::/scope:sales,READ (from your account), which gives only READ.',
      )
      .waitFor();
  });

  it('follows the change feed with the signed-in credentials: a change made elsewhere shows', async () => {
    const start = browser.requests.length;
    await page.goto(`${service.baseUrl}/console/`);
    await signIn('admin');
    await page.getByRole('banner').getByText('Live', { exact: true }).waitFor();
    // The screen's own read answered first: a change made before it would show without the feed.
    const scopes = page.getByRole('table', { name: 'Scopes' });
    await scopes.waitFor();
    const scope = `live-${Date.now()}`;
    const created = await createAsAdmin(`/v1/scopes`, { scopeName: scope });
    expect(created.status).toBe(201);
    await scopes.getByRole('link', { name: scope }).waitFor();
    const followed = requestsSince(browser, start, /^\/v1\/events$/)
      .map(({ request }) => request)
      .filter((request) => request.headers().accept === 'text/event-stream');
    expect(followed.length).toBeGreaterThan(0);
    expect(followed.map((request) => request.headers().authorization)).toEqual(
      followed.map(() => basic('admin')),
    );
  });

  it('follows the scope on screen for someone who may read that scope but not the whole feed', async () => {
    await page.goto(`${service.baseUrl}/console/scopes/sales`);
    await signIn('reader');
    await page.getByRole('heading', { level: 1, name: 'sales' }).waitFor();
    await page.getByRole('banner').getByText('Live', { exact: true }).waitFor();
    // Read again once the scope's feed is followed (the screen waits for its first position),
    // before the change: what shows afterwards came from the feed.
    const streams = page.getByRole('table', { name: 'Streams' });
    await streams.waitFor();
    const stream = `live-${Date.now()}`;
    const created = await createAsAdmin(`/v1/scopes/sales/streams`, {
      streamName: stream,
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
    });
    expect(created.status).toBe(201);
    await streams.getByRole('link', { name: stream }).waitFor();
    const followed = browser.requests
      .map((request) => new URL(request.url()))
      .filter((url) => url.pathname === '/v1/events')
      .map((url) => url.search);
    expect(followed).toContain('?scope=sales');
  });

  it('returns to sign-in when the service no longer takes the credentials (401)', async () => {
    await page.goto(`${service.baseUrl}/console/scopes/sales`);
    await signIn('admin');
    await page.getByRole('heading', { level: 1, name: 'sales' }).waitFor();
    // The service starts again with accounts that no longer hold this one.
    await service.stop();
    await start({ reader: ACCOUNTS.reader });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Audit' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByText('The service asked you to sign in again.').waitFor();
    expect(new URL(page.url()).pathname).toEqual('/console/audit');
    await signIn('reader');
    await page
      .getByText(
        'You may not do this: it needs READ_UPDATE (read and change) on the root (the list of scopes) (prn::/).',
      )
      .waitFor();
  });
});
