import { Locator, Page, Response } from 'playwright-core';
import type { DrawnPreview } from '../web/src/scale/preview-geometry';
import {
  ConsoleBrowser,
  drawnMap,
  focusedElement,
  openConsoleSession,
  requestsSince,
  closeConsoleSession,
  seriousViolations,
} from './support/console-browser';
import { eventually } from './support/eventually';
import { PROBLEM_HEADERS, uniqueName } from './support/factories';
import { TestApp } from './support/test-app';

jest.setTimeout(120_000);

interface Segment {
  number: number;
  startTime: number;
  keyStart: number;
  keyEnd: number;
}

interface ScaleRecord {
  timestamp: number;
  segmentList: Segment[];
}

interface StreamRef {
  scope: string;
  stream: string;
  path: string;
}

/** What the page's preview canvas carries (the tests compile without the DOM's types). */
interface PreviewCanvas {
  scalePreview?: DrawnPreview;
}

/** `range` cut into `parts` as the console must: i/n of the way, on the range's own ends. */
const cut = (keyStart: number, keyEnd: number, parts: number) =>
  Array.from({ length: parts }, (_, i) => ({
    keyStart: i === 0 ? keyStart : keyStart + ((keyEnd - keyStart) * i) / parts,
    keyEnd: i === parts - 1 ? keyEnd : keyStart + ((keyEnd - keyStart) * (i + 1)) / parts,
  }));

/**
 * Scaling a stream by hand from its segment map, in the packaged Chromium: selecting active
 * segments by pointer, keyboard and table, split and merge, the dry run's map, the scale with
 * `If-Match`, each refusal said in words, and the map's rectangles against the API's segments.
 * One application (console included, as built) and one browser for the whole file.
 */
describe('Scaling by hand in the console (e2e, browser)', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ t, baseUrl, browser, page } = await openConsoleSession());
  });
  afterAll(() => closeConsoleSession({ t, browser }));
  afterEach(async () => {
    await page.unrouteAll();
    // No script error and no Content-Security-Policy refusal.
    expect(browser.problems.splice(0)).toEqual([]);
  });

  const api = () => t.http;

  /**
   * A stream of `segments` equal segments whose policy keeps at least `minSegments` (a rate
   * policy: lowering its minimum does not rescale), in a scope of its own.
   */
  const newStream = async (segments: number, minSegments = 1): Promise<StreamRef> => {
    const scope = uniqueName('scale');
    expect((await api().post('/v1/scopes').send({ scopeName: scope })).status).toBe(201);
    const policy = { type: 'BY_RATE_IN_EVENTS_PER_SEC', targetRate: 100, scaleFactor: 2 };
    const created = await api()
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: 'clicks', scalingPolicy: { ...policy, minSegments: segments } });
    expect(created.status).toBe(201);
    const path = `/v1/scopes/${scope}/streams/clicks`;
    if (minSegments !== segments) {
      const put = await api()
        .put(path)
        .send({ scalingPolicy: { ...policy, minSegments } });
      expect(put.status).toBe(200);
    }
    return { scope, stream: 'clicks', path };
  };

  const segmentsNow = async (s: StreamRef) => {
    const res = await api().get(`${s.path}/segments`);
    expect(res.status).toBe(200);
    return {
      epoch: res.body.epoch as number,
      segments: res.body.segments as Segment[],
      etag: res.headers.etag,
    };
  };

  const scaleByApi = async (s: StreamRef, sealedSegments: number[], newRanges: object[]) => {
    const res = await api().post(`${s.path}/scale`).send({ sealedSegments, newRanges });
    expect(res.status).toBe(200);
    return res.body as { segments: Segment[]; newSegments: Segment[] };
  };

  const canvas = () => page.getByRole('application', { name: /^Segment map of/ });
  const dialog = () => page.getByRole('dialog', { name: /^Scale / });
  const openButton = () => page.getByRole('button', { name: 'Scale', exact: true });
  const scaleButton = () => dialog().getByRole('button', { name: 'Scale', exact: true });
  /** The selection as the page announces it (the dialog, when open, repeats it after). */
  const selection = () => page.getByText(/^(Selected to scale|No segment selected)/).first();
  const textOf = async (locator: Locator) => (await locator.textContent()) ?? '';

  const openStream = async (s: StreamRef) => {
    await page.goto(`${baseUrl}/console/scopes/${s.scope}/streams/${s.stream}`);
    await page.getByRole('heading', { level: 1, name: s.stream, exact: true }).waitFor();
    return drawnMap(page, canvas());
  };

  /** Clicks the middle of a segment's rectangle, as drawn now. */
  const clickSegment = async (number: number) => {
    const drawn = await drawnMap(page, canvas());
    const rect = drawn.rects.find((r) => r.number === number)!;
    await canvas().scrollIntoViewIfNeeded();
    const box = (await canvas().boundingBox())!;
    await page.mouse.click(
      box.x + drawn.plot.left + rect.x + rect.w / 2,
      box.y + drawn.plot.top + rect.y + rect.h / 4,
    );
  };

  /** The segments the map draws up to its right edge (now): the active ones, by number. */
  const drawnActive = async () => {
    const { rects, view } = await drawnMap(page, canvas());
    return rects
      .filter((r) => Math.round(r.x + r.w) === Math.round(view.width))
      .map((r) => r.number)
      .sort((a, b) => a - b);
  };

  const numbersOf = (segments: Segment[]) => segments.map((s) => s.number).sort((a, b) => a - b);

  /** The next dry run's (or scale's) answer, as the page receives it. */
  const nextScale = (dryRun: boolean): Promise<Response> =>
    page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname.endsWith('/scale') &&
        response.request().method() === 'POST' &&
        new URL(response.url()).searchParams.has('dryRun') === dryRun,
    );

  const alertIn = (where: Locator) => where.getByRole('alert');

  it('selects a segment with the pointer, splits it as the dry run shows, and scales with the stream’s ETag', async () => {
    const s = await newStream(4);
    const before = await segmentsNow(s);
    await openStream(s);
    expect(await textOf(selection())).toEqual('No segment selected to scale.');
    expect(await openButton().isDisabled()).toBe(true);

    await clickSegment(1);
    expect(
      await eventually(() => textOf(selection()), 'Selected to scale: segment 1, [0.25, 0.5).'),
    ).toEqual('Selected to scale: segment 1, [0.25, 0.5).');
    // Drawn as selected: hatched in its own colour, which no other segment shows (once the
    // focus, which the click also gave it, has left it).
    await page.keyboard.press('Escape');
    expect(
      await eventually(async () => (await drawnMap(page, canvas())).selected.join(), '1'),
    ).toBe('1');
    expect(await selectedColourIn(page, 1)).toBe(true);
    expect(await selectedColourIn(page, 2)).toBe(false);

    const firstDryRun = nextScale(true);
    await openButton().click();
    await dialog().waitFor();
    expect(
      await dialog().getByRole('radio', { name: 'Split each into equal parts' }).isChecked(),
    ).toBe(true);
    await firstDryRun;
    const dryRun = nextScale(true);
    await dialog().getByRole('textbox', { name: 'Parts per segment' }).fill('3');
    const answered = await dryRun;
    const newRanges = cut(0.25, 0.5, 3);
    expect(answered.request().postDataJSON()).toEqual({ sealedSegments: [1], newRanges });
    expect(await answered.request().headerValue('if-match')).toEqual(before.etag);
    expect(answered.status()).toBe(200);
    const planned = (await answered.json()) as { segments: Segment[]; newSegments: Segment[] };

    // The preview is the dry run's answer: a map of now and after, and a table.
    const preview = dialog().getByRole('img', { name: /^The segments now and after the scale/ });
    expect(await textOf(dialog().getByText(/^Epoch 1 would/))).toEqual(
      'Epoch 1 would seal segment 1 and open segments 4, 5 and 6 (1 split).',
    );
    const drawn = (await preview.evaluate((element: PreviewCanvas) => element.scalePreview))!;
    const y = (key: number) => (1 - key) * drawn.height;
    const half = drawn.width / 2;
    expect(drawn.rects).toEqual([
      { number: 1, kind: 'sealed', x: 0, y: y(0.5), w: half, h: y(0.25) - y(0.5) },
      ...[0, 2, 3].map((number) => {
        const kept = before.segments.find((segment) => segment.number === number)!;
        const top = y(kept.keyEnd);
        return { number, kind: 'kept', x: 0, y: top, w: drawn.width, h: y(kept.keyStart) - top };
      }),
      ...planned.newSegments.map((segment, i) => {
        const top = y(newRanges[i].keyEnd);
        return {
          number: segment.number,
          kind: 'new',
          x: half,
          y: top,
          w: half,
          h: y(newRanges[i].keyStart) - top,
        };
      }),
    ]);
    const rows = await dialog()
      .getByRole('table', { name: 'Segments after the scale' })
      .locator('tbody tr')
      .evaluateAll((trs: { children: ArrayLike<{ textContent: string | null }> }[]) =>
        trs.map((tr) => [tr.children[0].textContent, tr.children[2].textContent]),
      );
    expect(rows).toEqual(
      planned.segments.map((segment) => [
        String(segment.number),
        segment.number >= 4 ? 'new' : 'kept',
      ]),
    );
    // A dry run changes nothing.
    expect(await segmentsNow(s)).toEqual(before);

    const applied = nextScale(false);
    await scaleButton().click();
    const response = await applied;
    expect(response.status()).toBe(200);
    expect(await response.request().headerValue('if-match')).toEqual(before.etag);
    expect(response.request().postDataJSON()).toEqual({ sealedSegments: [1], newRanges });
    await page
      .getByRole('status')
      .filter({
        hasText: 'Scaled: epoch 1 sealed segment 1 and opened segments 4, 5 and 6 (1 split).',
      })
      .waitFor();
    expect(await dialog().isVisible()).toBe(false);

    // The API has exactly those bounds; the map is read again and draws them, nothing selected.
    const after = await segmentsNow(s);
    expect(
      after.segments.map(({ number, keyStart, keyEnd }) => ({ number, keyStart, keyEnd })),
    ).toEqual([
      { number: 0, keyStart: 0, keyEnd: 0.25 },
      ...newRanges.map((range, i) => ({ number: 4 + i, ...range })),
      { number: 2, keyStart: 0.5, keyEnd: 0.75 },
      { number: 3, keyStart: 0.75, keyEnd: 1 },
    ]);
    expect(await eventually(async () => (await drawnActive()).join(), '0,2,3,4,5,6')).toEqual(
      '0,2,3,4,5,6',
    );
    expect(await textOf(selection())).toEqual('No segment selected to scale.');
  });

  it('merges two neighbours, selected in the table, and explains a selection that is not one instead of sending it', async () => {
    const s = await newStream(4);
    await openStream(s);
    await clickSegment(0);
    await clickSegment(2);
    expect(
      await eventually(
        () => textOf(selection()),
        'Selected to scale: segments 0 and 2, [0, 0.25) and [0.5, 0.75).',
      ),
    ).toEqual('Selected to scale: segments 0 and 2, [0, 0.25) and [0.5, 0.75).');

    await openButton().click();
    await dialog()
      .getByRole('radio', { name: /^Merge into one segment/ })
      .check();
    const start = browser.requests.length;
    expect(await textOf(alertIn(dialog()))).toEqual(
      'Segments 0 and 2 are not neighbours: segment 1 lies between them. Only neighbouring ' +
        'segments merge into one: select the segments between them too, or split instead.',
    );
    expect(await scaleButton().isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await dialog().isVisible()).toBe(false);
    expect(requestsSince(browser, start, /\/scale$/)).toEqual([]);

    // The table selects as the map does.
    await page.getByRole('button', { name: 'Show as table' }).click();
    const table = page.getByRole('table', { name: 'Segments', exact: true });
    await table.getByRole('checkbox', { name: 'Select segment 2 to scale' }).uncheck();
    await table.getByRole('checkbox', { name: 'Select segment 1 to scale' }).check();
    expect(await textOf(selection())).toEqual('Selected to scale: segments 0 and 1, [0, 0.5).');

    const dryRun = nextScale(true);
    await openButton().click();
    expect(
      await dialog()
        .getByRole('radio', { name: /^Merge into one segment/ })
        .isChecked(),
    ).toBe(true);
    expect((await dryRun).request().postDataJSON()).toEqual({
      sealedSegments: [0, 1],
      newRanges: [{ keyStart: 0, keyEnd: 0.5 }],
    });
    await dialog()
      .getByText('Epoch 1 would seal segments 0 and 1 and open segment 4 (1 merge).')
      .waitFor();
    await scaleButton().click();
    await page
      .getByRole('status')
      .filter({
        hasText: 'Scaled: epoch 1 sealed segments 0 and 1 and opened segment 4 (1 merge).',
      })
      .waitFor();
    expect(
      (await segmentsNow(s)).segments.map(({ number, keyStart, keyEnd }) => [
        number,
        keyStart,
        keyEnd,
      ]),
    ).toEqual([
      [4, 0, 0.5],
      [2, 0.5, 0.75],
      [3, 0.75, 1],
    ]);
    await table.getByRole('checkbox', { name: 'Select segment 4 to scale' }).waitFor();
    expect(await table.getByRole('checkbox', { name: 'Select segment 0 to scale' }).count()).toBe(
      0,
    );
  });

  describe('says in words why a scale was refused, and shows the stream as it is', () => {
    /** The stream open with `numbers` selected, and the dialog open. */
    const selectAndOpen = async (s: StreamRef, ...numbers: number[]) => {
      await openStream(s);
      for (const number of numbers) await clickSegment(number);
      await openButton().click();
      await dialog().waitFor();
    };
    /** The same, once the dialog shows the dry run's preview. */
    const readyToScale = async (s: StreamRef, ...numbers: number[]) => {
      await selectAndOpen(s, ...numbers);
      await dialog()
        .getByRole('img', { name: /^The segments now and after the scale/ })
        .waitFor();
    };
    /**
     * Has someone else make `change` once Scale is pressed, before the console's scale reaches
     * the service. Made before the click instead, the change feed could tell the console first
     * (a slow click is enough): it reads the stream again, and then sends a scale the service
     * takes, or none. Answers once the change is made.
     */
    const meanwhile = async (change: () => Promise<unknown>): Promise<{ made: Promise<void> }> => {
      let made!: (done: Promise<void>) => void;
      const changed = new Promise<void>((resolve) => (made = resolve));
      await page.route(
        (url) => url.pathname.endsWith('/scale') && !url.searchParams.has('dryRun'),
        async (route) => {
          const done = change().then(() => undefined);
          made(done);
          await done.catch(() => undefined);
          await route.continue();
        },
        { times: 1 },
      );
      return { made: changed };
    };

    it('when someone scaled the same segment meanwhile (SEGMENT_NOT_ACTIVE)', async () => {
      const s = await newStream(4);
      await readyToScale(s, 1);
      const other = await meanwhile(() => scaleByApi(s, [1], cut(0.25, 0.5, 2)));
      const refused = nextScale(false);
      await scaleButton().click();
      await other.made;
      expect((await refused).status()).toBe(412);
      // The contract's 412 is empty unless a problem document is asked for: the console asks.
      expect(await (await refused).request().headerValue('accept')).toContain(
        'application/problem+json',
      );
      expect(await textOf(alertIn(dialog()).last())).toEqual(
        'Nothing was scaled. Segment 1 is not active in the current epoch (1). Someone scaled ' +
          'the stream since its segments were read. The map now shows the stream as it is: ' +
          'check the selection and the preview, then Scale again.',
      );
      // Read again: the other scale's segments are drawn, and segment 1 is no longer selected.
      const now = await segmentsNow(s);
      expect(
        await eventually(async () => (await drawnActive()).join(), numbersOf(now.segments).join()),
      ).toEqual(numbersOf(now.segments).join());
      expect(await textOf(dialog().getByText(/^No segment selected/))).toEqual(
        'No segment selected to scale.',
      );
      expect(await scaleButton().isDisabled()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await dialog().getByRole('button', { name: 'Cancel' }).click();
      const events = await api().get(`${s.path}/scaling-events?from=0&to=${Date.now() + 1000}`);
      expect(events.body.scalingEvents).toHaveLength(2);
    });

    it('when someone scaled other segments meanwhile (PRECONDITION_FAILED), then again on what it shows', async () => {
      const s = await newStream(4);
      const before = await segmentsNow(s);
      await readyToScale(s, 1);
      const other = await meanwhile(() => scaleByApi(s, [3], cut(0.75, 1, 2)));
      const refused = nextScale(false);
      await scaleButton().click();
      await other.made;
      expect((await refused).status()).toBe(412);
      expect(await textOf(alertIn(dialog()).last())).toEqual(
        'Nothing was scaled. Someone else changed the stream since its segments were read ' +
          '(scaled it, or changed its configuration). The map now shows the stream as it is: ' +
          'check the selection and the preview, then Scale again.',
      );
      // The dry run follows the stream as it is now; Scale then sends its new ETag.
      await dialog()
        .getByText('Epoch 2 would seal segment 1 and open segments 6 and 7 (1 split).')
        .waitFor();
      const current = await segmentsNow(s);
      expect(current.etag).not.toEqual(before.etag);
      const applied = nextScale(false);
      await scaleButton().click();
      const response = await applied;
      expect(response.status()).toBe(200);
      expect(await response.request().headerValue('if-match')).toEqual(current.etag);
      await page
        .getByRole('status')
        .filter({
          hasText: 'Scaled: epoch 2 sealed segment 1 and opened segments 6 and 7 (1 split).',
        })
        .waitFor();
    });

    it('when the scale would leave fewer segments than the policy allows (BELOW_MIN_SEGMENTS)', async () => {
      const s = await newStream(2, 2);
      const start = browser.requests.length;
      await selectAndOpen(s, 0, 1);
      expect(await textOf(alertIn(dialog()))).toEqual(
        'The scale would be refused. The scale would leave 1 active segment; the scaling policy ' +
          "needs at least 2. Merge fewer segments, or lower the scaling policy's minimum first.",
      );
      expect(await scaleButton().isDisabled()).toBe(true);
      const scales = requestsSince(browser, start, /\/scale$/).map(({ url }) => url.search);
      expect(scales).toEqual(['?dryRun=true']);
      await page.keyboard.press('Escape');
    });

    it('when the stream was sealed meanwhile (STREAM_SEALED)', async () => {
      const s = await newStream(4);
      await readyToScale(s, 2);
      const other = await meanwhile(async () =>
        expect((await api().put(`${s.path}/state`).send({ streamState: 'SEALED' })).status).toBe(
          200,
        ),
      );
      const refused = nextScale(false);
      await scaleButton().click();
      await other.made;
      expect((await refused).status()).toBe(412);
      expect(await textOf(alertIn(dialog()).last())).toEqual(
        'Nothing was scaled. The stream is sealed: a sealed stream cannot be scaled. The map ' +
          'now shows the stream as it is: check the selection and the preview, then Scale again.',
      );
      await dialog().getByRole('button', { name: 'Cancel' }).click();
      await page.getByText('The stream is sealed: it cannot be scaled.').waitFor();
      expect(await openButton().count()).toBe(0);
      expect(await page.getByText('SEALED', { exact: true }).first().isVisible()).toBe(true);
    });

    it('when the ranges sent do not cover the sealed segments (RANGES_DO_NOT_MATCH)', async () => {
      const s = await newStream(4);
      await readyToScale(s, 2);
      // What the console sends is exact; a request altered on its way is not.
      await page.route(
        (url) => url.pathname.endsWith('/scale') && !url.searchParams.has('dryRun'),
        (route) =>
          route.continue({
            postData: JSON.stringify({
              sealedSegments: [2],
              newRanges: [
                { keyStart: 0.5, keyEnd: 0.6 },
                { keyStart: 0.6, keyEnd: 0.7 },
              ],
            }),
          }),
      );
      const start = browser.requests.length;
      const refused = nextScale(false);
      await scaleButton().click();
      expect((await refused).status()).toBe(400);
      expect(await textOf(alertIn(dialog()).last())).toEqual(
        'Nothing was scaled. The new ranges must cover exactly the key space of the sealed ' +
          'segments: the sealed segments cover [0.5, 0.75), the new ranges [0.5, 0.7).',
      );
      // Read again all the same.
      expect(
        await eventually(
          () => Promise.resolve(requestsSince(browser, start, /\/segments$/).length > 0),
          true,
        ),
      ).toBe(true);
      expect((await segmentsNow(s)).epoch).toBe(0);
      await page.keyboard.press('Escape');
    });
  });

  it('offers no scale of an internal stream', async () => {
    const s = await newStream(1);
    await openStream({ ...s, stream: '_MARKclicks' });
    await page.getByText('An internal stream cannot be scaled by hand.').waitFor();
    expect(await openButton().count()).toBe(0);
  });

  it('is used with the keyboard alone, and axe finds nothing serious in the dialog', async () => {
    const s = await newStream(4);
    await openStream(s);
    const focused = () => focusedElement(page);
    const isFocused = (locator: Locator) =>
      locator.evaluate(
        (element) =>
          element === (element.ownerDocument as { activeElement: unknown }).activeElement,
      );

    await page.getByRole('button', { name: 'Show as table' }).focus();
    await page.keyboard.press('Tab');
    expect(await focused()).toMatch(/^CANVAS:Segment map of/);
    await page.keyboard.press('ArrowUp');
    const details = page.getByRole('region', { name: 'Segment in focus' });
    await details.getByText('[0.25, 0.5)').waitFor();
    await page.keyboard.press('Space');
    expect(
      await eventually(() => textOf(selection()), 'Selected to scale: segment 1, [0.25, 0.5).'),
    ).toEqual('Selected to scale: segment 1, [0.25, 0.5).');
    // Space again unselects, and again selects.
    await page.keyboard.press('Space');
    expect(await eventually(() => textOf(selection()), 'No segment selected to scale.')).toEqual(
      'No segment selected to scale.',
    );
    await page.keyboard.press('Enter');
    await eventually(() => textOf(selection()), 'Selected to scale: segment 1, [0.25, 0.5).');

    // Back to Scale; the dialog opens on the choice, and Escape closes it where it was opened.
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toEqual('BUTTON:Scale');
    await page.keyboard.press('Enter');
    await dialog().waitFor();
    const split = dialog().getByRole('radio', { name: 'Split each into equal parts' });
    expect(await isFocused(split)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await dialog().isVisible()).toBe(false);
    expect(await focused()).toEqual('BUTTON:Scale');

    await page.keyboard.press('Enter');
    await dialog().waitFor();
    // The arrow keys choose within the group.
    await page.keyboard.press('ArrowDown');
    expect(
      await dialog()
        .getByRole('radio', { name: /^Merge/ })
        .isChecked(),
    ).toBe(true);
    expect(await textOf(alertIn(dialog()))).toEqual(
      'Select two or more neighbouring segments to merge them.',
    );
    await page.keyboard.press('ArrowUp');
    expect(await split.isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    const parts = dialog().getByRole('textbox', { name: 'Parts per segment' });
    expect(await isFocused(parts)).toBe(true);
    await page.keyboard.press('Backspace');
    await page.keyboard.type('4');
    await dialog()
      .getByText('Epoch 1 would seal segment 1 and open segments 4, 5, 6 and 7 (1 split).')
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.keyboard.press('Tab');
    expect(await focused()).toEqual('BUTTON:Scale');
    await page.keyboard.press('Enter');
    // The focus goes to what happened, so that it is read out.
    expect(
      await eventually(
        focused,
        'P:Scaled: epoch 1 sealed segment 1 and opened segments 4, 5, 6 and 7 (1 split).',
      ),
    ).toEqual('P:Scaled: epoch 1 sealed segment 1 and opened segments 4, 5, 6 and 7 (1 split).');
    expect((await segmentsNow(s)).segments).toHaveLength(7);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('draws the API’s segments after several scales by hand, and reads a segment’s details from the API', async () => {
    const s = await newStream(2);
    // Several scales a moment apart: split, merge neighbours, split in three, merge again.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 120));
    await pause();
    await scaleByApi(s, [1], cut(0.5, 1, 2)); // 2, 3
    await pause();
    await scaleByApi(s, [0, 2], [{ keyStart: 0, keyEnd: 0.75 }]); // 4
    await pause();
    await scaleByApi(s, [4], cut(0, 0.75, 3)); // 5, 6, 7
    await pause();
    await scaleByApi(s, [7, 3], [{ keyStart: 0.5, keyEnd: 1 }]); // 8

    const start = browser.requests.length;
    const { view, rects } = await openStream(s);
    const current = await segmentsNow(s);
    const events = await api().get(`${s.path}/scaling-events?from=0&to=${Date.now() + 1000}`);
    const records = events.body.scalingEvents as ScaleRecord[];
    expect(records).toHaveLength(5);
    expect(requestsSince(browser, start, /\/clicks\/segments$/)).toHaveLength(1);

    // Every segment the events ever had is a rectangle, from its start to the record that
    // dropped it, over its very key range; the active ones are the API's segments and run to now.
    const spans = new Map<number, Segment & { end?: number }>();
    records.forEach((record, i) => {
      for (const segment of record.segmentList)
        if (!spans.has(segment.number)) spans.set(segment.number, { ...segment });
      const next = records[i + 1];
      for (const segment of record.segmentList) {
        if (next && !next.segmentList.some((n) => n.number === segment.number)) {
          spans.get(segment.number)!.end = next.timestamp;
        }
      }
    });
    const x = (time: number) => ((time - view.from) / (view.to - view.from)) * view.width;
    const y = (key: number) => (1 - key) * view.height;
    const expected = [...spans.values()].sort((a, b) => a.number - b.number);
    expect(rects.map((r) => r.number)).toEqual(expected.map((e) => e.number));
    expect(rects.map((r) => [r.number, r.y, r.h])).toEqual(
      expected.map((e) => [e.number, y(e.keyEnd), y(e.keyStart) - y(e.keyEnd)]),
    );
    const close = (a: number, b: number) => Math.abs(a - b) < 0.01;
    const misplaced = expected.filter((e, i) => {
      const r = rects[i];
      const left = Math.min(x(e.startTime), view.width - 1);
      return !(
        close(r.x, left) &&
        (e.end === undefined || close(r.x + r.w, Math.max(x(e.end), left + 1)))
      );
    });
    expect(misplaced).toEqual([]);
    expect(await drawnActive()).toEqual(numbersOf(current.segments));
    const activeRects = rects.filter((r) => current.segments.some((c) => c.number === r.number));
    expect(activeRects.map((r) => [r.number, r.y, r.h])).toEqual(
      [...current.segments]
        .sort((a, b) => a.number - b.number)
        .map((c) => [c.number, y(c.keyEnd), y(c.keyStart) - y(c.keyEnd)]),
    );

    // The details of the segment in focus are the API's, read when it is shown.
    const fact = async (term: string) =>
      textOf(
        page
          .getByRole('region', { name: 'Segment in focus' })
          .getByRole('term')
          .filter({ hasText: new RegExp(`^${term}$`) })
          .locator('xpath=following-sibling::dd[1]'),
      );
    const detailOf = async (number: number) =>
      (await api().get(`${s.path}/segments/${number}`)).body as {
        predecessors: number[];
        successors: number[];
        createdInEpoch: number;
        sealedInEpoch?: number;
      };
    await canvas().focus();
    await page.keyboard.press('End');
    expect(await eventually(() => fact('Segment'), '8')).toEqual('8');
    const eight = await detailOf(8);
    expect(eight.predecessors).toEqual([3, 7]);
    expect(await eventually(() => fact('Predecessors'), '3, 7')).toEqual('3, 7');
    expect(await fact('Successors')).toEqual('none');
    expect(await fact('End')).toEqual('active');
    expect(await fact('Epochs')).toEqual(`opened in ${eight.createdInEpoch}`);
    expect(requestsSince(browser, start, /\/clicks\/segments\/8$/)).toHaveLength(1);

    await page
      .getByRole('region', { name: 'Segment in focus' })
      .getByRole('button', { name: '7' })
      .click();
    expect(await eventually(() => fact('Segment'), '7')).toEqual('7');
    const seven = await detailOf(7);
    expect(await eventually(() => fact('Successors'), seven.successors.join(', '))).toEqual('8');
    expect(await fact('Predecessors')).toEqual(seven.predecessors.join(', '));
    expect(await fact('Epochs')).toEqual(
      `opened in ${seven.createdInEpoch}, sealed in ${seven.sealedInEpoch}`,
    );
    expect((await api().get(`${s.path}/segments/99`).set(PROBLEM_HEADERS)).status).toBe(404);

    // A sealed segment is not selected: the page says why.
    await canvas().focus();
    await page.keyboard.press('Home');
    expect(await eventually(() => fact('Segment'), '0')).toEqual('0');
    await page.keyboard.press('Space');
    await page.getByText('Segment 0 is sealed: only active segments can be scaled.').waitFor();
    expect((await drawnMap(page, canvas())).selected).toEqual([]);
  });
});

/** Whether a segment's rectangle shows the colour of a selection anywhere along its upper quarter. */
async function selectedColourIn(page: Page, number: number): Promise<boolean> {
  const canvas = page.getByRole('application', { name: /^Segment map of/ });
  return canvas.evaluate(
    (
      element: {
        segmentMap?: {
          plot: { left: number; top: number };
          rects: { number: number; x: number; y: number; w: number; h: number }[];
        };
        width: number;
        clientWidth: number;
        getContext(kind: '2d'): {
          getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
        };
      },
      wanted: number,
    ) => {
      const { plot, rects } = element.segmentMap!;
      const rect = rects.find((r) => r.number === wanted)!;
      const ratio = element.width / element.clientWidth;
      const row = Math.floor((plot.top + rect.y + rect.h / 4) * ratio);
      const { data } = element
        .getContext('2d')
        .getImageData(
          Math.floor((plot.left + rect.x + 4) * ratio),
          row,
          Math.floor((rect.w - 8) * ratio),
          1,
        );
      // SELECTED_FILL, #cdb8ec.
      for (let i = 0; i < data.length; i += 4) {
        if (
          Math.abs(data[i] - 0xcd) + Math.abs(data[i + 1] - 0xb8) + Math.abs(data[i + 2] - 0xec) <
          12
        )
          return true;
      }
      return false;
    },
    number,
  );
}
