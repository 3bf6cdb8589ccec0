import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from 'pg';
import { Page } from 'playwright-core';
import { seedStreams } from '../bench/support/database';
import {
  ConsoleBrowser,
  descriptionOf,
  drawnMap,
  focusedElement,
  mainHeading,
  openConsoleSession,
  paintedRects,
  requestsSince,
  closeConsoleSession,
  seriousViolations,
} from './support/console-browser';
import { eventually } from './support/eventually';
import { PROBLEM_HEADERS, uniqueName } from './support/factories';
import { TestApp } from './support/test-app';

jest.setTimeout(120_000);

const DOCS = join(__dirname, '../docs');

interface ScaleRecord {
  timestamp: number;
  segmentList: { number: number; startTime: number; keyStart: number; keyEnd: number }[];
}

/** The segments of a stream's scaling records, each from its start to the record that dropped it. */
function segmentsOf(records: ScaleRecord[]) {
  const segments = new Map<
    number,
    { number: number; keyStart: number; keyEnd: number; start: number; end?: number }
  >();
  records.forEach((record, index) => {
    for (const segment of record.segmentList) {
      if (!segments.has(segment.number)) {
        segments.set(segment.number, {
          number: segment.number,
          keyStart: segment.keyStart,
          keyEnd: segment.keyEnd,
          start: segment.startTime,
        });
      }
    }
    const next = records[index + 1];
    if (!next) return;
    for (const segment of record.segmentList) {
      if (!next.segmentList.some((s) => s.number === segment.number)) {
        segments.get(segment.number)!.end = next.timestamp;
      }
    }
  });
  return [...segments.values()].sort((a, b) => a.number - b.number);
}

/**
 * The console in the packaged Chromium, as a person uses it: every screen and action, their
 * error paths, deep links, the keyboard alone, and axe-core on every screen. One application
 * (console included, as built) and one browser for the whole file.
 */
describe('The console in a browser (e2e)', () => {
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

  const open = async (path: string, heading: string) => {
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  };
  const api = () => t.http;
  const createScope = async (prefix = 'scope') => {
    const scopeName = uniqueName(prefix);
    expect((await api().post('/v1/scopes').send({ scopeName })).status).toBe(201);
    return scopeName;
  };
  const createStream = async (scope: string, body: object) => {
    const res = await api().post(`/v1/scopes/${scope}/streams`).send(body);
    expect(res.status).toBe(201);
  };
  const rowOf = (tableName: string, name: string) =>
    page
      .getByRole('table', { name: tableName, exact: true })
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name, exact: true }) });
  const rowNames = (tableName: string) =>
    page
      .getByRole('table', { name: tableName, exact: true })
      .locator('tbody tr th')
      .allTextContents();
  const confirm = async (button: string) => {
    await page.getByRole('button', { name: button, exact: true }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: button, exact: true }).click();
  };

  describe('Scopes', () => {
    it('lists scopes a page at a time, as the API hands them out, and filters the page', async () => {
      await t.sql(
        `INSERT INTO scopes (name) SELECT 'zz-page-' || lpad(i::text, 3, '0') FROM generate_series(1, 60) i`,
      );
      const start = browser.requests.length;
      await open('/console', 'Scopes');
      const table = page.getByRole('table', { name: 'Scopes', exact: true });
      await table.getByRole('link', { name: 'zz-page-001' }).waitFor();
      const first = await rowNames('Scopes');
      expect(first).toHaveLength(50);
      expect(first.slice(-1)).toEqual([expect.stringMatching(/^zz-page-0\d\d$/)]);

      await page.getByRole('button', { name: 'Next page' }).click();
      await table.getByRole('link', { name: 'zz-page-060' }).waitFor();
      const second = await rowNames('Scopes');
      expect(new URL(page.url()).searchParams.get('page')).toEqual(expect.any(String));
      expect([...first, ...second].filter((n) => n.startsWith('zz-page-'))).toEqual(
        Array.from({ length: 60 }, (_, i) => `zz-page-${String(i + 1).padStart(3, '0')}`),
      );
      await page.getByRole('button', { name: 'Previous page' }).click();
      await table.getByRole('link', { name: 'zz-page-001' }).waitFor();
      expect(await rowNames('Scopes')).toEqual(first);

      await page.getByRole('searchbox', { name: 'Filter' }).fill('page-00');
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      expect(await eventually(async () => (await rowNames('Scopes')).length, 9)).toBe(9);
      expect(await rowNames('Scopes')).toEqual(
        Array.from({ length: 9 }, (_, i) => `zz-page-00${i + 1}`),
      );
      // Every list request asked for a page; none for the whole list.
      const lists = requestsSince(browser, start, /^\/v1\/scopes$/);
      expect(new Set(lists.map(({ url }) => url.searchParams.get('limit')))).toEqual(
        new Set(['50']),
      );
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('creates a scope, naming what is wrong with a name next to the field', async () => {
      await open('/console', 'Scopes');
      const name = page.getByRole('textbox', { name: 'Scope name' });
      await name.fill('_reserved');
      await page.getByRole('button', { name: 'Create scope' }).click();
      await page.getByText('The name must not start with "_"').waitFor();
      expect(await descriptionOf(name)).toContain('The name must not start with "_"');

      const scope = uniqueName('made');
      await name.fill(scope);
      await page.getByRole('button', { name: 'Create scope' }).click();
      await page.getByRole('status').getByRole('link', { name: scope }).waitFor();
      expect((await api().get(`/v1/scopes/${scope}`)).status).toBe(200);

      await name.fill(scope);
      await page.getByRole('button', { name: 'Create scope' }).click();
      await page.getByText('A scope with this name already exists.').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('deletes a scope once confirmed, and says why one that holds streams stays', async () => {
      const empty = await createScope('empty');
      const full = await createScope('full');
      await createStream(full, { streamName: 'kept' });
      await open('/console', 'Scopes');

      await rowOf('Scopes', full).getByRole('button', { name: 'Delete scope' }).click();
      const dialog = page.getByRole('dialog');
      expect(await dialog.locator('p').textContent()).toEqual(
        `Delete scope ${full}? This cannot be undone.`,
      );
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Delete scope' }).click();
      await rowOf('Scopes', full).getByText('The scope still has streams').waitFor();
      expect((await api().get(`/v1/scopes/${full}`)).status).toBe(200);

      await rowOf('Scopes', empty).getByRole('button', { name: 'Delete scope' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      expect((await api().get(`/v1/scopes/${empty}`)).status).toBe(200);
      await rowOf('Scopes', empty).getByRole('button', { name: 'Delete scope' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete scope' }).click();
      await rowOf('Scopes', empty).waitFor({ state: 'detached' });
      expect((await api().get(`/v1/scopes/${empty}`)).status).toBe(404);
    });
  });

  describe('A scope', () => {
    let scope: string;
    beforeAll(async () => {
      scope = await createScope('listed');
      await createStream(scope, { streamName: 'alpha', streamTags: ['billing'] });
      await createStream(scope, { streamName: 'beta', streamTags: ['ops'] });
      // 55 more, as rows (stream-000001 ...): the list pages.
      await seedStreams(
        { query: (sql: string, params?: unknown[]) => t.sql(sql, params) } as unknown as Client,
        scope,
        55,
      );
    });

    it('lists its streams a page at a time and reads each row state for the rows shown only', async () => {
      const start = browser.requests.length;
      await open(`/console/scopes/${scope}`, scope);
      const table = page.getByRole('table', { name: 'Streams', exact: true });
      await table.getByRole('link', { name: 'alpha' }).waitFor();
      expect(await rowNames('Streams')).toHaveLength(50);
      expect(await eventually(() => table.getByText('…').count(), 0)).toBe(0);
      expect(await rowOf('Streams', 'alpha').locator('td').allTextContents()).toEqual([
        '1 fixed segment',
        'forever',
        'billing',
        'ACTIVE',
      ]);
      const described = () =>
        requestsSince(browser, start, /\/streams\/[^/]+\/description$/).map(({ url }) =>
          decodeURIComponent(url.pathname.split('/')[5]),
        );
      expect(new Set(described())).toEqual(new Set(await rowNames('Streams')));

      await page.getByRole('button', { name: 'Next page' }).click();
      await table.getByRole('link', { name: 'stream-000055' }).waitFor();
      expect(await rowNames('Streams')).toHaveLength(7);
      expect(await eventually(() => table.getByText('…').count(), 0)).toBe(0);
      expect(described()).toHaveLength(57);
      expect(
        requestsSince(browser, start, /\/streams$/).map(({ url }) => url.searchParams.get('limit')),
      ).toEqual(['50', '50']);
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('asks the API for the streams of a tag, and for the internal ones', async () => {
      await open(`/console/scopes/${scope}`, scope);
      await page.getByRole('link', { name: 'alpha', exact: true }).waitFor();
      const start = browser.requests.length;
      await page.getByRole('searchbox', { name: 'Tag' }).fill('billing');
      await page.getByRole('button', { name: 'Filter by tag' }).click();
      expect(await eventually(async () => (await rowNames('Streams')).join(), 'alpha')).toBe(
        'alpha',
      );
      const [byTag] = requestsSince(browser, start, /\/streams$/);
      expect(Object.fromEntries(byTag.url.searchParams)).toEqual({
        limit: '50',
        filter_type: 'tag',
        filter_value: 'billing',
      });

      await page.getByRole('checkbox', { name: 'Show internal streams' }).check();
      await page.getByRole('link', { name: '_MARKalpha' }).waitFor();
      expect((await rowNames('Streams')).every((name) => name.startsWith('_MARK'))).toBe(true);
      expect(new URL(page.url()).searchParams.get('internal')).toEqual('true');
    });

    it('creates a stream, each refused field named next to it', async () => {
      await open(`/console/scopes/${scope}`, scope);
      const form = page.getByRole('form', { name: 'Create stream' });
      await form.getByRole('textbox', { name: 'Stream name' }).fill('gamma');
      const segments = form.getByRole('textbox', { name: 'Segments' });
      await segments.fill('0');
      await form.getByRole('combobox', { name: 'Retention' }).selectOption('LIMITED_SIZE_MB');
      const minimum = form.getByRole('textbox', { name: 'Minimum (MiB)' });
      await minimum.fill('-5');
      await form.getByRole('button', { name: 'Create stream' }).click();
      await form.getByText('The service refused some fields').waitFor();
      expect(await descriptionOf(segments)).toEqual('must be greater than 0');
      expect(await descriptionOf(minimum)).toEqual('must not be negative');
      expect(await seriousViolations(page)).toEqual([]);

      await segments.fill('four');
      await form.getByRole('button', { name: 'Create stream' }).click();
      expect(await eventually(() => descriptionOf(segments), 'must be a whole number')).toBe(
        'must be a whole number',
      );

      await segments.fill('3');
      await minimum.fill('1024');
      await form.getByRole('textbox', { name: 'Tags' }).fill('created\nwith, comma');
      await form.getByRole('button', { name: 'Create stream' }).click();
      await form.getByRole('status').getByRole('link', { name: 'gamma' }).waitFor();
      const created = await api().get(`/v1/scopes/${scope}/streams/gamma`);
      expect(created.body).toMatchObject({
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 3 },
        retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 1024 },
        tags: ['created', 'with, comma'],
      });
      await rowOf('Streams', 'gamma').waitFor();
    });

    it('creates a reader group and lists it with the streams it reads', async () => {
      await open(`/console/scopes/${scope}`, scope);
      const form = page.getByRole('form', { name: 'Create reader group' });
      await form.getByRole('textbox', { name: 'Reader group name' }).fill('billing-readers');
      await form.getByRole('textbox', { name: 'Streams to read' }).fill('alpha\nnope');
      await form.getByRole('button', { name: 'Create reader group' }).click();
      await form.getByRole('alert').waitFor();
      expect(await form.getByRole('alert').textContent()).toMatch(/nope/);

      await form.getByRole('textbox', { name: 'Streams to read' }).fill('alpha');
      await form.getByRole('button', { name: 'Create reader group' }).click();
      await rowOf('Reader groups', 'billing-readers').getByText(`${scope}/alpha`).waitFor();
      expect(
        await rowOf('Reader groups', 'billing-readers').locator('td').allTextContents(),
      ).toEqual([`${scope}/alpha`, '0']);
    });

    it('says the scope still has streams when asked to delete it', async () => {
      await open(`/console/scopes/${scope}`, scope);
      await confirm('Delete scope');
      await page.getByText('The scope still has streams').waitFor();
      expect((await api().get(`/v1/scopes/${scope}`)).status).toBe(200);
    });

    it('says a scope that does not exist does not', async () => {
      await open('/console/scopes/nope-nope', 'nope-nope');
      await page.getByText('Scope nope-nope does not exist').waitFor();
    });
  });

  describe('A stream', () => {
    let scope: string;
    let records: ScaleRecord[];
    beforeAll(async () => {
      scope = await createScope('streams');
      await createStream(scope, {
        streamName: 'orders',
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
        streamTags: ['billing'],
      });
      // Rescaled several times: 2, 3, 1, 4, then 2 segments, a moment apart (so that the
      // picture in docs/console.md shows them apart).
      for (const minSegments of [3, 1, 4, 2]) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        const res = await api()
          .put(`/v1/scopes/${scope}/streams/orders`)
          .send({
            scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
            streamTags: ['billing'],
          });
        expect(res.status).toBe(200);
      }
      const events = await api().get(
        `/v1/scopes/${scope}/streams/orders/scaling-events?from=0&to=${Date.now() + 1000}`,
      );
      records = events.body.scalingEvents as ScaleRecord[];
      expect(records.map((r) => r.segmentList.length)).toEqual([2, 3, 1, 4, 2]);
    });

    it('draws a rectangle per segment exactly where the scaling events put it', async () => {
      await open(`/console/scopes/${scope}/streams/orders`, 'orders');
      const canvas = page.getByRole('application', { name: /^Segment map of/ });
      const drawn = await drawnMap(page, canvas);
      const { view } = drawn;
      const x = (time: number) => ((time - view.from) / (view.to - view.from)) * view.width;
      const expected = segmentsOf(records).map((segment) => ({
        number: segment.number,
        left: x(segment.start),
        right: segment.end === undefined ? undefined : x(segment.end),
        top: (1 - segment.keyEnd) * view.height,
        bottom: (1 - segment.keyStart) * view.height,
      }));
      expect(drawn.rects.map((rect) => rect.number)).toEqual(expected.map((e) => e.number));
      const close = (a: number, b: number) => Math.abs(a - b) < 0.01;
      const misplaced = expected.filter((e, i) => {
        const rect = drawn.rects[i];
        return !(
          close(rect.x, e.left) &&
          close(rect.y, e.top) &&
          close(rect.y + rect.h, e.bottom) &&
          (e.right === undefined || close(rect.x + rect.w, Math.max(e.right, e.left + 1)))
        );
      });
      expect(misplaced).toEqual([]);
      // The active ones run to the right edge (now), and are the segments the API says are active.
      const description = await api().get(`/v1/scopes/${scope}/streams/orders/description`);
      const activeNumbers = (description.body.activeSegments as { number: number }[]).map(
        (s) => s.number,
      );
      const reachingNow = drawn.rects
        .filter((r) => Math.round(r.x + r.w) === Math.round(view.width))
        .map((r) => r.number);
      expect(reachingNow).toEqual(activeNumbers);
      // Each rectangle is painted: the pixel at its middle is not the background.
      const painted = await paintedRects(canvas);
      expect(painted).toEqual(drawn.rects.map(() => true));
      const chart = page.getByRole('figure', { name: 'Active segments over time' });
      await chart.locator('canvas').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // The picture of docs/console.md: the screen down to the count chart, an active segment selected
      // to scale, another segment under the pointer; in a window tall enough for all of it.
      await page.setViewportSize({ width: 1280, height: 1400 });
      try {
        const box = (await canvas.boundingBox())!;
        const middleOf = (rect: (typeof drawn.rects)[number]) => ({
          x: box.x + drawn.plot.left + rect.x + rect.w / 2,
          y: box.y + drawn.plot.top + rect.y + rect.h / 2,
        });
        const selected = middleOf(drawn.rects.find((r) => r.number === activeNumbers[0])!);
        await page.mouse.click(selected.x, selected.y);
        await page.getByText(`Selected to scale: segment ${activeNumbers[0]},`).waitFor();
        // The focus the click gave it leaves, so the picture shows the selection's own colour.
        await page.keyboard.press('Escape');
        await canvas.blur();
        const pointed = drawn.rects[Math.floor(drawn.rects.length / 2)];
        await page.mouse.move(middleOf(pointed).x, middleOf(pointed).y);
        const details = page.getByRole('region', { name: 'Segment in focus' });
        await details
          .getByRole('term')
          .filter({ hasText: /^Segment$/ })
          .locator('xpath=following-sibling::dd[1]')
          .getByText(String(pointed.number), { exact: true })
          .waitFor();
        // Its life as the API answers it, once read.
        await details.getByText(/^opened in \d+/).waitFor();
        const bottom = await chart.evaluate(
          (element: { getBoundingClientRect(): { bottom: number } }) =>
            element.getBoundingClientRect().bottom,
        );
        await mkdir(DOCS, { recursive: true });
        await page.screenshot({
          path: join(DOCS, 'console-stream.png'),
          clip: { x: 0, y: 0, width: 1280, height: Math.ceil(bottom) + 16 },
        });
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
    });

    it('shows a segment in focus, by pointer or keyboard, with its neighbours in time', async () => {
      await open(`/console/scopes/${scope}/streams/orders`, 'orders');
      const canvas = page.getByRole('application', { name: /^Segment map of/ });
      const drawn = await drawnMap(page, canvas);
      const details = page.getByRole('region', { name: 'Segment in focus' });
      const fact = async (term: string) =>
        (await details
          .getByRole('term')
          .filter({ hasText: new RegExp(`^${term}$`) })
          .locator('xpath=following-sibling::dd[1]')
          .textContent()) ?? '';
      const [first, second] = segmentsOf(records);

      await page.getByRole('button', { name: 'Show as table' }).focus();
      await page.keyboard.press('Tab');
      expect(await focusedElement(page)).toMatch(/^CANVAS:Segment map of/);
      expect(await eventually(() => fact('Segment'), String(first.number))).toBe(
        String(first.number),
      );
      expect(await fact('Key range')).toEqual(`[${first.keyStart}, ${first.keyEnd})`);
      // Predecessors and successors are the API's (GET .../segments/{number}), read once shown.
      expect(await eventually(() => fact('Predecessors'), 'none')).toEqual('none');
      const successors = segmentsOf(records)
        .filter(
          (s) => s.start === first.end && s.keyStart < first.keyEnd && first.keyStart < s.keyEnd,
        )
        .map((s) => s.number);
      expect(await fact('Successors')).toEqual(successors.join(', '));

      await page.keyboard.press('ArrowUp');
      expect(await eventually(() => fact('Segment'), String(second.number))).toBe(
        String(second.number),
      );
      await page.keyboard.press('ArrowRight');
      expect(
        await eventually(async () => Number(await fact('Segment')) > second.number, true),
      ).toBe(true);
      expect(
        await eventually(
          async () => (await fact('Predecessors')).split(', ').includes(String(second.number)),
          true,
        ),
      ).toBe(true);

      // The pointer shows the segment under it.
      const last = drawn.rects[drawn.rects.length - 1];
      const box = (await canvas.boundingBox())!;
      await page.mouse.move(
        box.x + drawn.plot.left + last.x + last.w / 2,
        box.y + drawn.plot.top + last.y + last.h / 2,
      );
      expect(await eventually(() => fact('Segment'), String(last.number))).toBe(
        String(last.number),
      );
      expect(await eventually(() => fact('End'), 'active')).toEqual('active');
    });

    it('shows the same segments as a table', async () => {
      await open(`/console/scopes/${scope}/streams/orders?view=table`, 'orders');
      const table = page.getByRole('table', { name: 'Segments', exact: true });
      await table.waitFor();
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs: { children: ArrayLike<{ textContent: string | null }> }[]) =>
          trs.map((tr) => Array.from(tr.children, (cell) => cell.textContent)),
        );
      expect(rows.map((cells) => Number(cells[0]))).toEqual(
        segmentsOf(records).map((s) => s.number),
      );
      const keys = (text: string | null) =>
        (/^\[(.+), (.+)\)$/.exec(text ?? '') ?? [])
          .slice(1)
          .map((n) => Number(Number(n).toFixed(5)));
      expect(rows.map((cells) => keys(cells[1]))).toEqual(
        segmentsOf(records).map((s) => [s.keyStart, s.keyEnd].map((n) => Number(n.toFixed(5)))),
      );
      expect(
        await page.getByRole('button', { name: 'Show as table' }).getAttribute('aria-pressed'),
      ).toBe('true');
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('loads and zooms into a window of time, asking the API for its events in pages', async () => {
      await open(`/console/scopes/${scope}/streams/orders`, 'orders');
      const canvas = page.getByRole('application', { name: /^Segment map of/ });
      const before = (await drawnMap(page, canvas)).view;
      const loading = page.waitForRequest((request) => request.url().includes('/scaling-events'));
      await page.getByRole('button', { name: 'Zoom in' }).click();
      const loaded = new URL((await loading).url());
      expect(
        await eventually(() => Promise.resolve(new URL(page.url()).searchParams.has('from')), true),
      ).toBe(true);
      const query = new URL(page.url()).searchParams;
      const [from, to] = [Number(query.get('from')), Number(query.get('to'))];
      // Half the window, or a second at least.
      const half = Math.max(1000, (before.to - before.from) / 2);
      expect(Math.abs(to - from - half)).toBeLessThanOrEqual(1);
      expect(Object.fromEntries(loaded.searchParams)).toEqual({
        from: String(from),
        to: String(to),
        limit: '1000',
      });
      expect(await eventually(async () => (await drawnMap(page, canvas)).view.from, from)).toBe(
        from,
      );
      await page.getByRole('button', { name: 'Whole history' }).click();
      expect(
        await eventually(
          () => Promise.resolve(new URL(page.url()).searchParams.has('from')),
          false,
        ),
      ).toBe(false);
    });

    it('saves the configuration only over what it read, and shows what someone else changed', async () => {
      await open(`/console/scopes/${scope}/streams/orders`, 'orders');
      const form = page.getByRole('form', { name: 'Configuration' });
      const segments = form.getByRole('textbox', { name: 'Segments' });
      await segments.waitFor();
      expect(await segments.inputValue()).toEqual('2');

      await segments.fill('0');
      await form.getByRole('button', { name: 'Save' }).click();
      await eventually(async () => /minSegments/.test(await descriptionOf(segments)), true);

      // Someone else changes the stream meanwhile.
      const elsewhere = await api()
        .put(`/v1/scopes/${scope}/streams/orders`)
        .send({
          scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
          streamTags: ['changed'],
        });
      expect(elsewhere.status).toBe(200);
      const start = browser.requests.length;
      await segments.fill('3');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText('Someone else changed the stream since you opened it').waitFor();
      const current = form.getByRole('definition').filter({ hasText: /^changed$/ });
      expect(await current.textContent()).toEqual('changed');
      const [refused] = requestsSince(browser, start, /\/streams\/orders$/);
      expect(await refused.request.headerValue('if-match')).toMatch(/^"\d+\.\d+"$/);
      expect((await api().get(`/v1/scopes/${scope}/streams/orders`)).body.scalingPolicy).toEqual({
        type: 'FIXED_NUM_SEGMENTS',
        minSegments: 2,
      });
      expect(await seriousViolations(page)).toEqual([]);

      // Having seen them, Save again replaces them.
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByRole('status').getByText('Saved.').waitFor();
      expect((await api().get(`/v1/scopes/${scope}/streams/orders`)).body).toMatchObject({
        scalingPolicy: { minSegments: 3 },
        tags: ['billing'],
      });
    });

    it('seals the stream, then deletes it', async () => {
      await createStream(scope, { streamName: 'short-lived' });
      await open(`/console/scopes/${scope}/streams/short-lived`, 'short-lived');
      expect(await page.getByRole('button', { name: 'Delete stream' }).isDisabled()).toBe(true);
      await confirm('Seal');
      await page.getByText('SEALED', { exact: true }).first().waitFor();
      expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
      expect(
        (await api().get(`/v1/scopes/${scope}/streams/short-lived/description`)).body.state,
      ).toBe('SEALED');
      await confirm('Delete stream');
      await page.getByRole('heading', { level: 1, name: scope }).waitFor();
      expect((await api().get(`/v1/scopes/${scope}/streams/short-lived`)).status).toBe(404);
    });
  });

  describe('A reader group', () => {
    it('shows the streams it reads, sets readers online and offline, and is deleted', async () => {
      const scope = await createScope('groups');
      await createStream(scope, { streamName: 'orders' });
      const created = await api()
        .post(`/v1/scopes/${scope}/readergroups`)
        .send({ readerGroupName: 'billing', streams: ['orders'] });
      expect(created.status).toBe(201);
      await open(`/console/scopes/${scope}/readergroups/billing`, 'billing');
      await page.getByRole('link', { name: `${scope}/orders` }).waitFor();

      await page.getByRole('textbox', { name: 'Reader ID' }).fill('reader-1');
      await page.getByRole('button', { name: 'Set online' }).click();
      const readers = page.getByRole('table', { name: 'Readers', exact: true });
      await readers.getByRole('rowheader', { name: 'reader-1' }).waitFor();
      expect(
        (await api().get(`/v1/scopes/${scope}/readergroups/billing`)).body.onlineReaderIds,
      ).toEqual(['reader-1']);
      expect(await seriousViolations(page)).toEqual([]);

      await readers.getByRole('button', { name: 'Set offline' }).click();
      await readers.getByRole('rowheader', { name: 'reader-1' }).waitFor({ state: 'detached' });
      expect(
        (await api().get(`/v1/scopes/${scope}/readergroups/billing`)).body.onlineReaderIds,
      ).toEqual([]);

      await confirm('Delete reader group');
      await page.getByRole('heading', { level: 1, name: scope }).waitFor();
      expect((await api().get(`/v1/scopes/${scope}/readergroups/billing`)).status).toBe(404);
    });
  });

  describe('Audit', () => {
    it('filters the trail by resource, principal and time, a page at a time', async () => {
      const scope = await createScope('audited');
      await createStream(scope, { streamName: 'busy' });
      const started = Date.now();
      for (let i = 0; i < 55; i++) {
        const res = await api()
          .put(`/v1/scopes/${scope}/streams/busy`)
          .send({
            scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
            streamTags: [`v${i}`],
          });
        expect(res.status).toBe(200);
      }
      await open('/console/audit', 'Audit');
      const resource = `prn::/scope:${scope}/stream:busy`;
      await page.getByRole('textbox', { name: 'Resource' }).fill(resource);
      await page.getByRole('textbox', { name: 'Principal' }).fill('anonymous');
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      const table = page.getByRole('table', { name: 'Audit events', exact: true });
      expect(await eventually(() => table.locator('tbody tr').count(), 50)).toBe(50);
      const cells = (column: number) =>
        table.locator(`tbody tr td:nth-child(${column})`).allTextContents();
      expect(new Set(await cells(4))).toEqual(new Set([resource]));
      expect(new Set(await cells(2))).toEqual(new Set(['anonymous']));
      expect(new Set(await cells(3))).toEqual(new Set(['updateStream']));
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Next page' }).click();
      // 55 updates and the create: 6 on the second page.
      expect(await eventually(() => table.locator('tbody tr').count(), 6)).toBe(6);
      expect(await cells(3)).toContain('createStream');
      const url = new URL(page.url());
      expect([url.searchParams.get('resource'), url.searchParams.get('principal')]).toEqual([
        resource,
        'anonymous',
      ]);

      // A window that ends before the changes began holds none of them.
      await open(
        `/console/audit?resource=${encodeURIComponent(resource)}&to=${started - 60_000}`,
        'Audit',
      );
      await page.getByText('No event matches.').waitFor();
    });
  });

  describe('Health', () => {
    it('shows the health tree, readiness and liveness', async () => {
      await open('/console/health', 'Health');
      await page.getByText('database', { exact: true }).waitFor();
      const fact = (term: string) =>
        page
          .getByRole('term')
          .filter({ hasText: new RegExp(`^${term}$`) })
          .locator('xpath=following-sibling::dd[1]')
          .textContent();
      expect([await fact('Ready'), await fact('Alive')]).toEqual(['yes (UP)', 'yes']);
      const contributors = page.getByRole('region', { name: 'Contributors' });
      expect(await contributors.getByRole('listitem').first().textContent()).toMatch(
        /^tributary UP/,
      );
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  describe('Apply', () => {
    const documentOf = (scope: string, minSegments: number) =>
      `scopes:\n  - scopeName: ${scope}\n    streams:\n      - streamName: orders\n` +
      `        scalingPolicy: { type: FIXED_NUM_SEGMENTS, minSegments: ${minSegments} }\n`;

    it('plans a pasted document as a diff, then applies exactly that plan', async () => {
      const scope = uniqueName('applied');
      await open('/console/apply', 'Apply');
      await page.getByRole('textbox', { name: 'Document' }).fill(documentOf(scope, 2));
      expect(await page.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Plan' }).click();
      const changes = page.getByRole('table', { name: 'Changes', exact: true });
      await changes.waitFor();
      expect(await changes.locator('tbody tr td:first-child').allTextContents()).toEqual([
        '+ create',
        '+ create',
      ]);
      expect((await api().get(`/v1/scopes/${scope}`)).status).toBe(404);
      expect(await seriousViolations(page)).toEqual([]);

      const start = browser.requests.length;
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('Applied: 2 created').waitFor();
      const [applied] = requestsSince(browser, start, /^\/v1\/apply$/);
      expect(await applied.request.headerValue('if-match')).toMatch(/^".+"$/);
      expect((await api().get(`/v1/scopes/${scope}/streams/orders`)).body.scalingPolicy).toEqual({
        type: 'FIXED_NUM_SEGMENTS',
        minSegments: 2,
      });
    });

    it('applies nothing when something the plan read changed since', async () => {
      const scope = await createScope('drifted');
      await createStream(scope, {
        streamName: 'orders',
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
      });
      await open('/console/apply', 'Apply');
      await page.getByRole('textbox', { name: 'Document' }).fill(documentOf(scope, 4));
      await page.getByRole('button', { name: 'Plan' }).click();
      const changes = page.getByRole('table', { name: 'Changes', exact: true });
      await changes.getByText('scalingPolicy.minSegments').waitFor();
      expect(await changes.getByRole('listitem').textContent()).toEqual(
        'scalingPolicy.minSegments: 1 → 4',
      );
      const elsewhere = await api()
        .put(`/v1/scopes/${scope}/streams/orders`)
        .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 } });
      expect(elsewhere.status).toBe(200);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page
        .getByText('Something the plan read has changed since: nothing was applied.')
        .waitFor();
      expect((await api().get(`/v1/scopes/${scope}/streams/orders`)).body.scalingPolicy).toEqual({
        type: 'FIXED_NUM_SEGMENTS',
        minSegments: 2,
      });
    });

    it('reads an uploaded document, and names each invalid part of one', async () => {
      await open('/console/apply', 'Apply');
      const invalid = JSON.stringify({
        scopes: [
          { scopeName: 'ok', streams: [{ streamName: 'x', scalingPolicy: { type: 'NOPE' } }] },
        ],
      });
      await page.getByLabel('Upload a document').setInputFiles({
        name: 'topology.json',
        mimeType: 'application/json',
        buffer: Buffer.from(invalid),
      });
      expect(
        await eventually(
          () => page.getByRole('textbox', { name: 'Document' }).inputValue(),
          invalid,
        ),
      ).toBe(invalid);
      await page.getByRole('button', { name: 'Plan' }).click();
      const errors = page.getByRole('list', { name: 'Invalid parts of the document' });
      await errors.waitFor();
      expect(await errors.locator('code').allTextContents()).toEqual([
        'scopes[0].streams[0].scalingPolicy.type',
        'scopes[0].streams[0].scalingPolicy.minSegments',
      ]);
    });

    it("shows a scope's policy as a change, and offers no Apply for a plan that breaks it", async () => {
      const scope = uniqueName('policed');
      await open('/console/apply', 'Apply');
      const document =
        `scopes:\n  - scopeName: ${scope}\n    policy: { streamNames: ['orders-*'] }\n` +
        `    streams:\n      - streamName: refunds\n`;
      await page.getByRole('textbox', { name: 'Document' }).fill(document);
      await page.getByRole('button', { name: 'Plan' }).click();
      const changes = page.getByRole('table', { name: 'Changes', exact: true });
      await changes.waitFor();
      expect(await changes.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual([
        'scope',
        'scope policy',
        'stream',
      ]);
      const violations = page.getByRole('list', {
        name: 'Rules of scope policies the document breaks',
      });
      expect(await violations.getByRole('listitem').allTextContents()).toEqual([
        expect.stringContaining(`prn::/scope:${scope}/stream:refunds: streamNames:`),
      ]);
      expect(await page.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      expect((await api().get(`/v1/scopes/${scope}`)).status).toBe(404);
    });
  });

  describe('Moving around', () => {
    it('opens every screen from its address, again after a reload, and from links', async () => {
      const scope = await createScope('linked');
      await createStream(scope, { streamName: 'deep' });
      await open(`/console/scopes/${scope}/streams/deep`, 'deep');
      await page.reload();
      expect(await mainHeading(page)).toEqual('deep');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Scopes' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Scopes' }).waitFor();
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: 'deep' }).waitFor();
      await page.getByRole('link', { name: scope, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: scope }).waitFor();
      expect(new URL(page.url()).pathname).toEqual(`/console/scopes/${scope}`);

      await open('/console/no/such/screen', 'Not found');
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('works with the keyboard alone', async () => {
      await open('/console', 'Scopes');
      const focused = () => focusedElement(page);
      const tabTo = async (target: RegExp) => {
        for (let i = 0; i < 40 && !target.test(await focused()); i++)
          await page.keyboard.press('Tab');
        expect(await focused()).toMatch(target);
      };
      // The first Tab reaches the skip link, which leads to the screen.
      await page.keyboard.press('Tab');
      expect(await focused()).toEqual('A:Skip to content');

      const scope = uniqueName('keys');
      await tabTo(/^INPUT:/);
      await page.keyboard.type(scope);
      await page.keyboard.press('Enter');
      await page.getByRole('status').getByRole('link', { name: scope }).waitFor();
      await tabTo(new RegExp(`^A:${scope}$`));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: scope }).waitFor();

      // A confirmation opens on the safe choice, and Escape closes it.
      await tabTo(/^BUTTON:Delete scope$/);
      await page.keyboard.press('Enter');
      expect(await focused()).toEqual('BUTTON:Cancel');
      await page.keyboard.press('Escape');
      expect(await page.getByRole('dialog').isVisible()).toBe(false);
      expect((await api().get(`/v1/scopes/${scope}`)).status).toBe(200);
      await tabTo(/^BUTTON:Delete scope$/);
      await page.keyboard.press('Enter');
      await page.keyboard.press('Shift+Tab');
      expect(await focused()).toEqual('BUTTON:Delete scope');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Scopes' }).waitFor();
      expect((await api().get(`/v1/scopes/${scope}`).set(PROBLEM_HEADERS)).status).toBe(404);
    });
  });
});
