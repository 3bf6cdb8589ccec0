import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Page } from 'playwright-core';
import { basic, writeAccounts, writeGroupAcls } from './support/accounts';
import {
  ConsoleBrowser,
  openConsoleBrowser,
  requestsSince,
  seriousViolations,
} from './support/console-browser';
import { AUDIENCE, TestOidcProvider, UI_CLIENT_ID } from './support/oidc-provider';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(180_000);

const OUTPUT_DIR = join(__dirname, '../test-output');

/** What the page keeps beyond its memory: the lengths of its storages, and its cookies. */
const keptByPage = (page: Page) =>
  page.evaluate(() => {
    const { localStorage, sessionStorage, document } = globalThis as unknown as {
      localStorage: { length: number };
      sessionStorage: { length: number };
      document: { cookie: string };
    };
    return [localStorage.length, sessionStorage.length, document.cookie];
  });

/** The console's redirect URI, as docs/security.md tells operators to register it. */
const CALLBACK_PATH = '/console/sign-in/callback';

/**
 * Signing in to the console at an OpenID Connect provider (the in-process `oidc-provider`, its
 * own login and consent pages driven in the browser): the authorization code with PKCE for the
 * public client AUTH_OIDC_UI_CLIENT_ID, back on the screen the user was on, the token sent as a
 * bearer token and kept in the page only, who is signed in from whoami, a 403 explained by
 * `GET /v1/auth/explain`, signing out, and a token the service no longer takes back to sign-in.
 * The built service, in a process of its own.
 */
describe('Signing in to the console at an OpenID Connect provider (e2e, built service)', () => {
  let provider: TestOidcProvider;
  let database: { url: string; drop(): Promise<void> };
  let port: number;
  let service: ServiceProcess;
  let browser: ConsoleBrowser;
  let page: Page;
  let signInWithProvider: string;

  const start = async (audience = AUDIENCE, accounts = true) => {
    service = ServiceProcess.start({
      PORT: String(port),
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      AUTH_ENABLED: 'true',
      ...(accounts && { AUTH_ACCOUNTS_FILE: await writeAccounts({ admin: 'prn::*,READ_UPDATE' }) }),
      AUTH_GROUP_ACLS_FILE: await writeGroupAcls({
        'sales-readers': 'prn::/scope:sales,READ;prn::/scope:sales/*,READ',
      }),
      AUTH_OIDC_ISSUER: provider.issuer,
      AUTH_OIDC_AUDIENCE: audience,
      AUTH_OIDC_UI_CLIENT_ID: UI_CLIENT_ID,
    });
    await service.ready();
  };

  /**
   * Clicks "Sign in with" the provider and answers what the provider asks on its own pages
   * (login, consent) until it sends the page back to the console's callback; answers whether
   * the provider asked for a login (it does not while its own session lasts).
   */
  const signInAtProvider = async (login = 'alice'): Promise<{ loggedIn: boolean }> => {
    let loggedIn = false;
    let back = false;
    const callback = page
      .waitForRequest((request) => request.url().startsWith(`${service.baseUrl}${CALLBACK_PATH}`))
      .then(() => {
        back = true;
      });
    await page.getByRole('button', { name: signInWithProvider }).click();
    const loginField = page.getByPlaceholder('Enter any login');
    const consent = page.getByRole('button', { name: 'Continue' });
    while (!back) {
      await Promise.race([
        callback,
        loginField
          .or(consent)
          .first()
          .waitFor()
          .catch(() => undefined),
      ]);
      if (back) break;
      if (await loginField.isVisible()) {
        await loginField.fill(login);
        await page.getByPlaceholder('and password').fill('any password');
        await page.getByRole('button', { name: 'Sign-in' }).click();
        await loginField.waitFor({ state: 'detached' });
        loggedIn = true;
      } else if (await consent.isVisible()) {
        await consent.click();
        await consent.waitFor({ state: 'detached' });
      }
    }
    return { loggedIn };
  };

  beforeAll(async () => {
    port = await freePort();
    provider = await TestOidcProvider.start({
      clients: {},
      accounts: { alice: { groups: ['sales-readers'] } },
      uiRedirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    });
    signInWithProvider = `Sign in with ${provider.issuer}`;
    database = await createTestDatabase();
    await start();
    const created = await fetch(`${service.baseUrl}/v1/scopes`, {
      method: 'POST',
      headers: { Authorization: basic('admin'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ scopeName: 'sales' }),
    });
    expect(created.status).toBe(201);
    browser = await openConsoleBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await database?.drop();
    await provider?.down();
  });
  afterEach(() => {
    // The provider's own pages are not the console's: only the console's problems count.
    const problems = browser.problems.splice(0);
    expect(problems.filter((problem) => !problem.includes('fonts.googleapis.com'))).toEqual([]);
  });

  it('tells the page the issuer and client, and lets it fetch from the provider only', async () => {
    const answer = await fetch(`${service.baseUrl}/console/scopes/sales`);
    const html = await answer.text();
    expect(html).toContain(`<meta name="tributary-oidc-issuer" content="${provider.issuer}" />`);
    expect(html).toContain(`<meta name="tributary-oidc-client-id" content="${UI_CLIENT_ID}" />`);
    const policy = answer.headers.get('content-security-policy') ?? '';
    expect(policy.split('; ')).toEqual(
      expect.arrayContaining([
        "script-src 'self'",
        `connect-src 'self' ${provider.issuer}`,
        "form-action 'self'",
      ]),
    );
  });

  it('offers both ways to sign in, accessibly', async () => {
    await page.goto(`${service.baseUrl}/console/scopes/sales`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByRole('button', { name: signInWithProvider, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'User' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await mkdir(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, 'console-sign-in.png') });
  });

  it('comes back from a sign-in cancelled at the provider on the same screen, saying so', async () => {
    await page.goto(`${service.baseUrl}/console/health`);
    await page.getByRole('button', { name: signInWithProvider }).click();
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page
      .getByRole('alert')
      .getByText(`Signing in at ${provider.issuer} failed: access_denied`)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/health');
    // What the sign-in kept for the trip to the provider is gone once back.
    expect(await keptByPage(page)).toEqual([0, 0, '']);
  });

  it('signs in at the provider and lands on the deep-linked screen, showing who from whoami', async () => {
    await page.goto(`${service.baseUrl}/console/scopes/sales?internal=1`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const since = browser.requests.length;
    await signInAtProvider();
    await page.getByRole('heading', { level: 1, name: 'sales' }).waitFor();
    const landed = new URL(page.url());
    expect(landed.pathname + landed.search).toBe('/console/scopes/sales?internal=1');
    const header = page.getByRole('banner');
    await header.getByText('Signed in as alice (groups: sales-readers)').waitFor();
    await header.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await mkdir(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, 'console-signed-in.png') });

    // Every API request since carries the provider's access token, nothing else.
    const sent = requestsSince(browser, since, /^\/v1\//);
    const headers = await Promise.all(
      sent.map(({ request }) => request.headerValue('authorization')),
    );
    expect(sent.map(({ url }) => url.pathname)).toContain('/v1/auth/whoami');
    expect(headers.every((value) => /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/.test(value ?? ''))).toBe(
      true,
    );
    // Nothing of it is kept: no storage, no cookie of the console's origin.
    expect(await keptByPage(page)).toEqual([0, 0, '']);
  });

  it("says which permission on which resource is missing, from the caller's access check", async () => {
    // Signed in as alice (above): her group reads the scope sales and may change nothing.
    const since = browser.requests.length;
    const form = page.getByRole('form', { name: 'Create stream' });
    await form.getByRole('textbox', { name: 'Stream name' }).fill('refused');
    await form.getByRole('button', { name: 'Create stream' }).click();
    await form
      .getByRole('alert')
      .getByText(
        'You may not do this: it needs READ_UPDATE (read and change) on scope sales ' +
          '(prn::/scope:sales). For scope sales, the first entry of your access that names it ' +
          'is prn::/scope:sales,READ (from your group sales-readers), which gives only READ.',
      )
      .waitFor();
    const asked = requestsSince(browser, since, /^\/v1\/auth\/explain$/).map(({ url }) =>
      Object.fromEntries(url.searchParams),
    );
    expect(asked).toEqual([{ resource: 'prn::/scope:sales', permission: 'READ_UPDATE' }]);

    await page.getByRole('button', { name: 'Delete scope' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete scope' }).click();
    await page
      .getByRole('alert')
      .getByText(
        'You may not do this: it needs READ_UPDATE (read and change) on the root (the list of ' +
          'scopes) (prn::/). No entry of your access names the root (the list of scopes).',
      )
      .waitFor();
  });

  it('signs out, signs in again at the provider, and signs out there too', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Audit' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByText('You signed out.').waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/console/audit');

    // Signed in at the provider still: signing in again asks no login there.
    expect(await signInAtProvider()).toEqual({ loggedIn: false });
    await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
    await page.getByText('Signed in as alice').waitFor();

    // Signing out at the provider too (its discovery names an end-session endpoint).
    await page.getByRole('button', { name: 'Sign out' }).click();
    const atProvider = page.getByRole('link', { name: `Sign out at ${provider.issuer} too` });
    expect(await atProvider.getAttribute('href')).toBe(
      `${provider.issuer}/session/end?client_id=${UI_CLIENT_ID}`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(OUTPUT_DIR, 'console-signed-out.png') });
    await atProvider.click();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.getByRole('heading', { name: 'Sign-out Success' }).waitFor();
    await page.goto(`${service.baseUrl}/console/audit`);
    expect(await signInAtProvider()).toEqual({ loggedIn: true });
    await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
  });

  it('returns to sign-in when the service no longer takes the token (401), and says why a new one is refused', async () => {
    await page.goto(`${service.baseUrl}/console/scopes/sales`);
    await signInAtProvider();
    await page.getByRole('heading', { level: 1, name: 'sales' }).waitFor();
    // The service starts again expecting tokens for another audience: this one is now invalid.
    await service.stop();
    await start('urn:tributary:another-audience');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Audit' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByText('The service asked you to sign in again.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/audit');

    // The provider's new token is for the old audience too: refused, and the page says why.
    await signInAtProvider();
    await page
      .getByRole('alert')
      .getByText("The service refused the provider's token. The bearer token is not valid")
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/audit');
    await page.getByRole('button', { name: signInWithProvider }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('offers only the provider when the service has no accounts', async () => {
    await service.stop();
    await start(AUDIENCE, false);
    await page.goto(`${service.baseUrl}/console/health`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByRole('button', { name: signInWithProvider }).waitFor();
    expect(await page.getByRole('textbox', { name: 'User' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await signInAtProvider();
    await page.getByRole('heading', { level: 1, name: 'Health' }).waitFor();
    await page.getByText('Signed in as alice').waitFor();
  });
});
