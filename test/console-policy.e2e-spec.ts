import { Page } from 'playwright-core';
import { basic, PASSWORD, writeAccounts } from './support/accounts';
import {
  ConsoleBrowser,
  closeConsoleSession,
  descriptionOf,
  openConsoleBrowser,
  openConsoleSession,
  requestsSince,
  seriousViolations,
  serveConsole,
} from './support/console-browser';
import { eventually } from './support/eventually';
import { uniqueName } from './support/factories';
import { TestApp } from './support/test-app';

jest.setTimeout(120_000);

/** A policy with every rule, for a scope whose streams are `pay-...`. */
const POLICY = {
  owner: 'team-payments',
  description: 'Card and wallet events',
  maxStreams: 5,
  maxSegmentsPerStream: 4,
  maxActiveSegments: 40,
  streamNames: ['pay-*'],
  scalingTypes: ['FIXED_NUM_SEGMENTS'],
  retention: { required: true, maxDays: 30 },
  requiredTags: ['owner:*'],
};

/**
 * Scope policies in the console, in the packaged Chromium: the policy and its limits on the
 * scope's screen, edited by whoever may (`If-Match`, a 412 after a concurrent edit, a 400 by
 * field), the create form stating the rules, and each refused change's violations next to the
 * fields they concern. One application (console included, as built) and one browser.
 */
describe('Scope policies in the console (e2e, browser)', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ t, baseUrl, browser, page } = await openConsoleSession());
  });
  afterAll(() => closeConsoleSession({ t, browser }));
  afterEach(() => {
    // No script error and no Content-Security-Policy refusal, on any screen.
    expect(browser.problems.splice(0)).toEqual([]);
  });

  const api = () => t.http;
  const open = async (scope: string) => {
    await page.goto(`${baseUrl}/console/scopes/${scope}`);
    await page.getByRole('heading', { level: 1, name: scope, exact: true }).waitFor();
  };
  const createScope = async (policy?: object) => {
    const scopeName = uniqueName('policed');
    expect((await api().post('/v1/scopes').send({ scopeName })).status).toBe(201);
    if (policy) {
      expect((await api().put(`/v1/scopes/${scopeName}/policy`).send(policy)).status).toBe(200);
    }
    return scopeName;
  };
  const createStream = async (scope: string, body: object) => {
    expect((await api().post(`/v1/scopes/${scope}/streams`).send(body)).status).toBe(201);
  };
  const policySection = () => page.getByRole('region', { name: 'Policy', exact: true });
  const facts = () => policySection().getByRole('definition');
  const factsText = async () => (await facts().allTextContents()).join(' | ');

  it('shows a scope without a policy in one line, then a policy set elsewhere', async () => {
    const scope = await createScope();
    await open(scope);
    await policySection().getByText('No policy: no limits or rules.').waitFor();
    expect(await facts().count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    // A policy set elsewhere is shown without a reload.
    const policy = { owner: 'team-live', maxStreams: 9 };
    expect((await api().put(`/v1/scopes/${scope}/policy`).send(policy)).status).toBe(200);
    await policySection().getByText('team-live').waitFor();
    await policySection().getByText('0 of 9 streams').waitFor();
  });

  it("shows a scope's policy: owner, description, limits and rules in words", async () => {
    const scope = await createScope(POLICY);
    await createStream(scope, {
      streamName: 'pay-cards',
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 3 },
      retentionPolicy: { type: 'LIMITED_DAYS', value: 7 },
      streamTags: ['owner:cards'],
    });
    await open(scope);
    await policySection().getByText('team-payments').waitFor();
    const shown = await factsText();
    expect(shown).toContain('Card and wallet events');
    // The limits with their use now, from the compliance report.
    await policySection().getByText('1 of 5 streams').waitFor();
    expect(shown).toContain('4 active segments at most');
    expect(await factsText()).toContain('3 of 40 active segments');
    expect(await factsText()).not.toContain('over the limit');
    await policySection().getByText('Every stream follows the policy.').waitFor();
    const rules = await policySection()
      .getByRole('list', { name: 'Rules for streams' })
      .getByRole('listitem')
      .allTextContents();
    expect(rules).toEqual([
      "A new stream's name must match pay-* (* any characters, ? one character).",
      'Scaling must be fixed number of segments.',
      'Every stream must have a retention policy; kept by time, at most 30 days.',
      'Every stream needs a tag matching owner:*.',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('marks a limit exceeded now in words, lists the streams that break the policy, and follows changes', async () => {
    const scope = await createScope();
    await createStream(scope, { streamName: 'alpha', streamTags: ['owner:a'] });
    await createStream(scope, {
      streamName: 'beta',
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 3 },
      streamTags: ['owner:b'],
    });
    await createStream(scope, { streamName: 'gamma' });
    // A policy that what exists breaks already: it may be set, and judges changes from now on.
    const policy = { maxStreams: 2, maxSegmentsPerStream: 2, requiredTags: ['owner:*'] };
    expect((await api().put(`/v1/scopes/${scope}/policy`).send(policy)).status).toBe(200);
    await open(scope);
    const streams = policySection().getByRole('definition').filter({ hasText: 'streams' }).first();
    await policySection().getByText('3 of 2 streams').waitFor();
    expect(await streams.textContent()).toEqual('3 of 2 streams (over the limit)');
    await policySection().getByText('2 streams break the policy now', { exact: false }).waitFor();
    const listed = policySection().getByRole('list', { name: 'Streams that break the policy' });
    expect(await listed.getByRole('listitem').allTextContents()).toEqual([
      'beta: The stream has 3 active segments, over the limit of 2.',
      'gamma: No tag of the stream matches the required tag pattern owner:*.',
    ]);
    await listed.getByRole('link', { name: 'gamma' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // A stream's change made elsewhere is shown without a reload.
    expect(
      (
        await api()
          .put(`/v1/scopes/${scope}/streams/gamma`)
          .send({
            scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
            streamTags: ['owner:g'],
          })
      ).status,
    ).toBe(200);
    await policySection().getByText('1 stream breaks the policy now', { exact: false }).waitFor();
  });

  it('sets a policy from its form, with If-Match, and shows it; a 400 is said next to its field', async () => {
    const scope = await createScope();
    await open(scope);
    await policySection().getByRole('button', { name: 'Edit policy' }).click();
    const form = page.getByRole('form', { name: 'Edit policy' });
    await form.getByRole('textbox', { name: 'Owner' }).fill('team-orders');
    await form.getByRole('textbox', { name: 'Description' }).fill('Orders of the shop');
    await form.getByRole('textbox', { name: 'Most streams' }).fill('3');
    const perStream = form.getByRole('textbox', { name: 'Most active segments per stream' });
    await perStream.fill('0');
    await form.getByRole('textbox', { name: 'Stream name patterns' }).fill('orders-*, refunds-??');
    await form.getByRole('checkbox', { name: 'Fixed number of segments' }).check();
    await form.getByRole('checkbox', { name: 'By rate, events per second' }).check();
    await form.getByRole('checkbox', { name: 'Every stream must have a retention policy' }).check();
    await form.getByRole('textbox', { name: 'Most days of retention' }).fill('14');
    await form.getByRole('textbox', { name: 'Required tag patterns' }).fill('owner:*\nteam:*');
    expect(await seriousViolations(page)).toEqual([]);

    // The API refuses a limit below its minimum, named next to its field.
    await form.getByRole('button', { name: 'Save policy' }).click();
    await form.getByText('The service refused some fields').waitFor();
    expect(await descriptionOf(perStream)).toMatch(/not be less than 1/);
    expect(await seriousViolations(page)).toEqual([]);

    await perStream.fill('8');
    const start = browser.requests.length;
    await form.getByRole('button', { name: 'Save policy' }).click();
    await policySection().getByRole('status').getByText('Policy saved.').waitFor();
    const [sent] = requestsSince(browser, start, /\/policy$/).filter(
      ({ request }) => request.method() === 'PUT',
    );
    expect(await sent.request.headerValue('if-match')).toMatch(/^".+"$/);
    const stored = await api().get(`/v1/scopes/${scope}/policy`);
    expect(stored.body).toEqual({
      owner: 'team-orders',
      description: 'Orders of the shop',
      maxStreams: 3,
      maxSegmentsPerStream: 8,
      streamNames: ['orders-*', 'refunds-??'],
      scalingTypes: ['FIXED_NUM_SEGMENTS', 'BY_RATE_IN_EVENTS_PER_SEC'],
      retention: { required: true, maxDays: 14 },
      requiredTags: ['owner:*', 'team:*'],
    });
    // The screen shows the new policy.
    await policySection().getByText('team-orders').waitFor();
    await policySection().getByText('0 of 3 streams').waitFor();
    await policySection()
      .getByText("A new stream's name must match orders-* or refunds-??", {
        exact: false,
      })
      .waitFor();
    expect(await page.getByRole('form', { name: 'Edit policy' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('refuses to save over a policy someone else changed (412), and shows theirs', async () => {
    const scope = await createScope({ owner: 'first-owner' });
    await open(scope);
    await policySection().getByRole('button', { name: 'Edit policy' }).click();
    const form = page.getByRole('form', { name: 'Edit policy' });
    await form.getByRole('textbox', { name: 'Most streams' }).fill('10');

    // Someone else changes the policy meanwhile.
    const elsewhere = await api()
      .put(`/v1/scopes/${scope}/policy`)
      .send({ owner: 'second-owner', maxStreams: 2 });
    expect(elsewhere.status).toBe(200);

    await form.getByRole('button', { name: 'Save policy' }).click();
    await form.getByRole('alert').getByText('Someone else changed the policy').waitFor();
    // The policy is read again: theirs is shown, and nothing of ours was saved.
    await policySection().getByText('second-owner').waitFor();
    await policySection().getByText('0 of 2 streams').waitFor();
    expect((await api().get(`/v1/scopes/${scope}/policy`)).body).toEqual({
      owner: 'second-owner',
      maxStreams: 2,
    });
    expect(await seriousViolations(page)).toEqual([]);

    // Having seen it, Save again replaces it with what the form holds.
    await form.getByRole('button', { name: 'Save policy' }).click();
    await policySection().getByRole('status').getByText('Policy saved.').waitFor();
    expect((await api().get(`/v1/scopes/${scope}/policy`)).body).toEqual({
      owner: 'first-owner',
      maxStreams: 10,
    });
  });

  it("states the scope's rules on the create-stream form, under the fields they judge", async () => {
    const scope = await createScope(POLICY);
    await open(scope);
    const form = page.getByRole('form', { name: 'Create stream' });
    const name = form.getByRole('textbox', { name: 'Stream name' });
    await eventually(async () => /must match pay-\*/.test(await descriptionOf(name)), true);
    expect(await descriptionOf(form.getByRole('combobox', { name: 'Scaling' }))).toContain(
      'Scaling must be fixed number of segments.',
    );
    expect(await descriptionOf(form.getByRole('combobox', { name: 'Retention' }))).toContain(
      'Every stream must have a retention policy; kept by time, at most 30 days.',
    );
    expect(await descriptionOf(form.getByRole('textbox', { name: 'Tags' }))).toContain(
      'Every stream needs a tag matching owner:*.',
    );
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("shows each rule a create breaks next to its field, and the scope's count on the form", async () => {
    const scope = await createScope({ ...POLICY, maxStreams: 0, retention: undefined });
    await open(scope);
    const form = page.getByRole('form', { name: 'Create stream' });
    const name = form.getByRole('textbox', { name: 'Stream name' });
    const tags = form.getByRole('textbox', { name: 'Tags' });
    await name.fill('refunds');
    await tags.fill('team:billing');
    await form.getByRole('button', { name: 'Create stream' }).click();
    const alert = form.getByRole('alert');
    await alert.getByText("The scope's policy does not allow some fields").waitFor();
    expect(await alert.textContent()).toContain(
      'Also: The change would make 1 user streams in the scope, over the limit of 0.',
    );
    expect(await descriptionOf(name)).toContain(
      "The stream name refunds matches none of the scope's name patterns.",
    );
    expect(await descriptionOf(tags)).toContain(
      'No tag of the stream matches the required tag pattern owner:*.',
    );
    expect(await name.getAttribute('aria-invalid')).toEqual('true');
    expect(await tags.getAttribute('aria-invalid')).toEqual('true');
    expect((await api().get(`/v1/scopes/${scope}/streams/refunds`)).status).toBe(404);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a rule an edit of a stream breaks next to its field', async () => {
    const scope = await createScope();
    await createStream(scope, { streamName: 'pay-wallets', streamTags: ['owner:wallets'] });
    expect(
      (
        await api()
          .put(`/v1/scopes/${scope}/policy`)
          .send({ scalingTypes: ['FIXED_NUM_SEGMENTS'] })
      ).status,
    ).toBe(200);
    await page.goto(`${baseUrl}/console/scopes/${scope}/streams/pay-wallets`);
    const form = page.getByRole('form', { name: 'Configuration' });
    const scaling = form.getByRole('combobox', { name: 'Scaling' });
    await scaling.selectOption('BY_RATE_IN_EVENTS_PER_SEC');
    await form.getByRole('textbox', { name: 'Target rate per segment' }).fill('100');
    await form.getByRole('textbox', { name: 'Scale factor' }).fill('2');
    await form.getByRole('button', { name: 'Save' }).click();
    await form
      .getByRole('alert')
      .getByText("The scope's policy does not allow some fields")
      .waitFor();
    expect(await descriptionOf(scaling)).toContain(
      'The scaling policy type BY_RATE_IN_EVENTS_PER_SEC is not one the scope allows.',
    );
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a segment limit a scale breaks next to its parts, from the dry run', async () => {
    const scope = await createScope();
    await createStream(scope, {
      streamName: 'clicks',
      scalingPolicy: {
        type: 'BY_RATE_IN_EVENTS_PER_SEC',
        targetRate: 100,
        scaleFactor: 2,
        minSegments: 2,
      },
    });
    const policy = { maxSegmentsPerStream: 3 };
    expect((await api().put(`/v1/scopes/${scope}/policy`).send(policy)).status).toBe(200);
    await page.goto(`${baseUrl}/console/scopes/${scope}/streams/clicks`);
    await page.getByRole('heading', { level: 1, name: 'clicks', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show as table' }).click();
    const table = page.getByRole('table', { name: 'Segments', exact: true });
    await table.getByRole('checkbox', { name: 'Select segment 0 to scale' }).check();
    await page.getByRole('button', { name: 'Scale', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /^Scale / });
    const parts = dialog.getByRole('textbox', { name: 'Parts per segment' });
    // Two parts make 3 segments, within the limit; three make 4, over it.
    await dialog.getByRole('table', { name: 'Segments after the scale' }).waitFor();
    await parts.fill('3');
    await dialog.getByText('The scale would be refused.', { exact: false }).waitFor();
    expect(await descriptionOf(parts)).toContain(
      'The change would make 4 active segments of the stream, over the limit of 3.',
    );
    expect(await parts.getAttribute('aria-invalid')).toEqual('true');
    expect(await dialog.getByRole('button', { name: 'Scale', exact: true }).isDisabled()).toBe(
      true,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });
});

/**
 * Whoever may not change policies (`READ_UPDATE` on `prn::/`) sees the policy and no way to
 * edit it; whoever may, sees the button. Authentication on, accounts from a file.
 */
describe('Scope policies in the console, signed in (e2e, browser)', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: ConsoleBrowser;
  let page: Page;
  const scope = uniqueName('signed');

  beforeAll(async () => {
    const accounts = await writeAccounts({
      admin: 'prn::*,READ_UPDATE',
      reader: `prn::/scope:${scope},READ;prn::/scope:${scope}/*,READ`,
      writer: `prn::/scope:${scope},READ_UPDATE;prn::/scope:${scope}/*,READ_UPDATE`,
    });
    ({ t, baseUrl } = await serveConsole({
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: accounts,
    }));
    const admin = basic('admin');
    expect(
      (await t.http.post('/v1/scopes').set('Authorization', admin).send({ scopeName: scope }))
        .status,
    ).toBe(201);
    expect(
      (
        await t.http
          .put(`/v1/scopes/${scope}/policy`)
          .set('Authorization', admin)
          .send({ owner: 'team-signed', maxStreams: 7 })
      ).status,
    ).toBe(200);
    browser = await openConsoleBrowser();
    page = browser.page;
  });
  afterAll(() => closeConsoleSession({ t, browser }));
  afterEach(() => {
    expect(browser.problems.splice(0)).toEqual([]);
  });

  const openAs = async (user: string) => {
    await page.goto(`${baseUrl}/console/scopes/${scope}`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByRole('textbox', { name: 'User' }).fill(user);
    await page.getByLabel('Password').fill(PASSWORD);
    // Once signed in, the page asks the service whether the user may change policies.
    const explained = page.waitForResponse((response) =>
      response.url().includes('/v1/auth/explain'),
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: scope, exact: true }).waitFor();
    await explained;
  };
  const policySection = () => page.getByRole('region', { name: 'Policy', exact: true });

  it.each(['reader', 'writer'])(
    '%s, who may not change policies, sees the policy and no edit',
    async (user) => {
      await openAs(user);
      await policySection().getByText('team-signed').waitFor();
      await policySection().getByText('0 of 7 streams').waitFor();
      expect(await page.getByRole('button', { name: 'Edit policy' }).count()).toBe(0);
      expect(await page.getByRole('form', { name: 'Edit policy' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
    },
  );

  it('an administrator, who may, sees the edit', async () => {
    await openAs('admin');
    await policySection().getByRole('button', { name: 'Edit policy' }).waitFor();
  });
});
