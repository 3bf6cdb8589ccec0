import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Locator, Page } from 'playwright-core';
import { basic, writeAccounts, writeGroupAcls } from './support/accounts';
import { Browser, launchChromium } from './support/browser';
import { AUDIENCE, TestOidcProvider, UI_CLIENT_ID } from './support/oidc-provider';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

const OUTPUT_DIR = join(__dirname, '../test-output');

jest.setTimeout(120_000);

/**
 * Swagger UI of the built service with bearer tokens, in headless Chromium: Authorize offers a
 * plain bearer token field, and the sign-in at the provider (authorization code with PKCE, the
 * public client AUTH_OIDC_UI_CLIENT_ID); either way an operation then answers 200.
 */
describe('Swagger UI signs in at the provider (e2e, built service, in-process provider)', () => {
  let provider: TestOidcProvider;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: ServiceProcess;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    provider = await TestOidcProvider.start({
      clients: { 'reader-client': { groups: ['sales-readers'] } },
      accounts: { alice: { groups: ['sales-readers'] } },
      uiRedirectUri: `http://127.0.0.1:${port}/docs/oauth2-redirect.html`,
    });
    database = await createTestDatabase();
    service = ServiceProcess.start({
      PORT: String(port),
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: await writeAccounts({ admin: 'prn::*,READ_UPDATE' }),
      AUTH_GROUP_ACLS_FILE: await writeGroupAcls({
        'sales-readers': 'prn::/scope:sales,READ;prn::/scope:sales/*,READ',
      }),
      AUTH_OIDC_ISSUER: provider.issuer,
      AUTH_OIDC_AUDIENCE: AUDIENCE,
      AUTH_OIDC_UI_CLIENT_ID: UI_CLIENT_ID,
    });
    await service.ready();
    const created = await fetch(`${service.baseUrl}/v1/scopes`, {
      method: 'POST',
      headers: { Authorization: basic('admin'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ scopeName: 'sales' }),
    });
    expect(created.status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await database?.drop();
    await provider?.down();
  });

  /**
   * Runs an operation of the Scopes tag with "Try it out" (filling `scopeName` when it has one);
   * answers the status and body the page shows.
   */
  async function tryOut(page: Page, id: string, scopeName?: string) {
    const operation = page.locator(`#operations-Scopes-${id}`);
    if ((await operation.getByRole('button', { name: 'Execute' }).count()) === 0) {
      await operation.locator('button.opblock-summary-control').click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
    }
    // The answer of a call before goes first, so that the one read is this call's.
    const clear = operation.getByRole('button', { name: 'Clear' });
    if (await clear.isVisible()) await clear.click();
    if (scopeName) await operation.getByPlaceholder('scopeName').fill(scopeName);
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = operation.locator('.live-responses-table tbody tr.response');
    await response.locator('td.response-col_status').waitFor();
    return {
      status: await response.locator('td.response-col_status').textContent(),
      body: await response.locator('td.response-col_description pre').first().textContent(),
    };
  }

  /** The Authorize dialog's part for one security scheme. */
  const scheme = (page: Page, title: string): Locator =>
    page.locator('.auth-container', { has: page.locator('h4', { hasText: title }) });

  async function openAuthorize(page: Page): Promise<void> {
    await page.locator('.auth-wrapper').getByRole('button', { name: 'Authorize' }).click();
  }

  async function closeAuthorize(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Close' }).first().click();
  }

  it('calls an operation with a bearer token pasted into Authorize', async () => {
    const { page } = browser;
    try {
      await page.goto(`${service.baseUrl}/docs`);
      await page.locator('#operations-tag-Scopes').click();
      expect((await tryOut(page, 'getScope', 'sales')).status).toBe('401');

      await openAuthorize(page);
      const bearer = scheme(page, 'bearer (http, Bearer)');
      await bearer
        .getByRole('textbox', { name: 'auth-bearer-value' })
        .fill(await provider.clientToken('reader-client'));
      await bearer.getByRole('button', { name: 'Apply credentials' }).click();
      await bearer.getByRole('button', { name: 'Remove authorization' }).waitFor();
      await closeAuthorize(page);
      const answer = await tryOut(page, 'getScope', 'sales');
      expect([answer.status, JSON.parse(answer.body ?? '')]).toEqual([
        '200',
        { scopeName: 'sales' },
      ]);
    } finally {
      await mkdir(OUTPUT_DIR, { recursive: true });
      await page.screenshot({ path: join(OUTPUT_DIR, 'swagger-ui-bearer.png'), fullPage: true });
    }
  });

  it('signs in at the provider with the authorization code and PKCE, then calls an operation', async () => {
    const page = await browser.page.context().newPage();
    try {
      await page.goto(`${service.baseUrl}/docs`);
      await page.locator('#operations-tag-Scopes').click();
      await openAuthorize(page);
      const oidc = scheme(page, 'authorization_code with PKCE');
      await expect(oidc.getByLabel('client_id:').inputValue()).resolves.toBe(UI_CLIENT_ID);
      const [signIn] = await Promise.all([
        page.waitForEvent('popup'),
        oidc.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click(),
      ]);
      // The provider's own sign-in page, then its consent page.
      await signIn.getByPlaceholder('Enter any login').fill('alice');
      await signIn.getByPlaceholder('and password').fill('any password');
      await signIn.getByRole('button', { name: 'Sign-in' }).click();
      // The popup closes itself as soon as the redirect lands, which can be before
      // the click returns: wait for the close from before the click.
      await Promise.all([
        signIn.waitForEvent('close'),
        signIn.getByRole('button', { name: 'Continue' }).click({ noWaitAfter: true }),
      ]);
      await oidc.getByRole('button', { name: 'Remove authorization' }).waitFor();
      await closeAuthorize(page);

      const answer = await tryOut(page, 'getScope', 'sales');
      expect([answer.status, JSON.parse(answer.body ?? '')]).toEqual([
        '200',
        { scopeName: 'sales' },
      ]);
      const whoami = await tryOut(page, 'whoami');
      expect([whoami.status, JSON.parse(whoami.body ?? '')]).toEqual([
        '200',
        expect.objectContaining({
          principal: 'alice',
          method: 'bearer',
          groups: ['sales-readers'],
        }),
      ]);
    } finally {
      await mkdir(OUTPUT_DIR, { recursive: true });
      await page.screenshot({ path: join(OUTPUT_DIR, 'swagger-ui-sign-in.png'), fullPage: true });
      await page.close();
    }
  });
});
