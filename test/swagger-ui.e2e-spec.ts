import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Locator } from 'playwright-core';
import { Browser, launchChromium } from './support/browser';
import { uniqueName } from './support/factories';
import { startBuiltService } from './support/openapi';

const OUTPUT_DIR = join(__dirname, '../test-output');

jest.setTimeout(120_000);

/**
 * A new user's first minutes, in a real browser: Swagger UI of the built service, the Scopes
 * tag, "Try it out" on create scope and on list scopes, and what the page shows back.
 */
describe('Swagger UI in headless Chromium (e2e, built service)', () => {
  let service: { baseUrl: string; stop(): Promise<void> } | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    service = await startBuiltService();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  /** Opens an operation, presses "Try it out", optionally fills the body, then "Execute". */
  async function tryOut(operation: Locator, body?: object): Promise<Locator> {
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.try-out__btn').click();
    if (body) await operation.locator('textarea.body-param__text').fill(JSON.stringify(body));
    await operation.locator('button.execute').click();
    return operation.locator('.live-responses-table tbody tr.response');
  }

  /** Waits (bounded) until the server's response on the page shows `status` and `text`. */
  async function readResponse(response: Locator, status: number, text: string): Promise<void> {
    await response.locator('td.response-col_status', { hasText: String(status) }).waitFor();
    await response.locator('td.response-col_description pre', { hasText: text }).first().waitFor();
  }

  it('creates a scope with "Try it out", then finds it in the list', async () => {
    const { page } = browser!;
    const scopeName = uniqueName('swagger');
    try {
      await page.goto(`${service!.baseUrl}/docs`);
      const scopesTag = page.locator('#operations-tag-Scopes');
      await expect(scopesTag.textContent()).resolves.toContain('Scope APIs');
      await expect(scopesTag.getAttribute('data-is-open')).resolves.toBe('false');
      await scopesTag.click();
      await expect(scopesTag.getAttribute('data-is-open')).resolves.toBe('true');

      const created = await tryOut(page.locator('#operations-Scopes-createScope'), {
        scopeName,
      });
      await readResponse(created, 201, `"scopeName": "${scopeName}"`);
      expect(await created.locator('td.response-col_status').textContent()).toBe('201');

      const listed = await tryOut(page.locator('#operations-Scopes-listScopes'));
      await readResponse(listed, 200, `"scopeName": "${scopeName}"`);
      expect(await listed.locator('td.response-col_status').textContent()).toBe('200');

      // The page did not just render: the service holds the scope.
      expect((await fetch(`${service!.baseUrl}/v1/scopes/${scopeName}`)).status).toBe(200);
    } finally {
      await mkdir(OUTPUT_DIR, { recursive: true });
      await page.screenshot({ path: join(OUTPUT_DIR, 'swagger-ui.png'), fullPage: true });
    }
  });

  it('shows the change feed, listEvents, and answers its newest position with "Try it out"', async () => {
    const { page } = browser!;
    await page.goto(`${service!.baseUrl}/docs`);
    const scopesTag = page.locator('#operations-tag-Scopes');
    await scopesTag.click();
    await expect(scopesTag.getAttribute('data-is-open')).resolves.toBe('true');
    const feed = page.locator('#operations-Scopes-listEvents');
    await expect(feed.locator('.opblock-summary-path').textContent()).resolves.toBe('/v1/events');
    await feed.locator('.opblock-summary-control').click();
    // Both media types of its answer, and its parameters.
    const body = feed.locator('.opblock-body');
    await body.locator('tr[data-param-name="since"]').waitFor();
    for (const name of ['scope', 'limit', 'wait', 'Last-Event-ID']) {
      expect([name, await body.locator(`tr[data-param-name="${name}"]`).count()]).toEqual([
        name,
        1,
      ]);
    }
    const types = await body
      .locator('.response-control-media-type select option')
      .allTextContents();
    expect(types).toEqual(expect.arrayContaining(['application/json', 'text/event-stream']));
    await feed.locator('button.try-out__btn').click();
    // Without `since` the feed answers where it stands: the starting point of list-then-follow.
    await body.locator('tr[data-param-name="since"] input').fill('');
    await feed.locator('button.execute').click();
    const answer = feed.locator('.live-responses-table tbody tr.response');
    await readResponse(answer, 200, '"position"');
    expect(await answer.locator('td.response-col_status').textContent()).toBe('200');
  });
});
