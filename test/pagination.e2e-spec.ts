import { TEST_SERVER_ENV } from './setup/test-server';
import { createScope, PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** docs/extensions.md section 1: every list in pages, keyset, with encrypted tokens. */

type Body = Record<string, unknown> & { continuationToken?: string };

interface Walk {
  items: unknown[];
  pages: number;
}

describe('Pagination (e2e)', () => {
  let t: TestApp;
  let scope: string;
  let other: string;
  let databaseUrl: string;

  const get = (path: string) => t.http.get(path);
  const sep = (path: string) => (path.includes('?') ? '&' : '?');

  /**
   * Walks a list from its first page by following each page's `Link`, checking the header's exact
   * form and that the body's token and the header agree; `limits` gives each page's size in turn
   * (the last one repeats).
   */
  async function walk(
    path: string,
    key: string,
    limits: number[],
    between: () => Promise<void> = async () => {},
  ): Promise<Walk> {
    const items: unknown[] = [];
    let url = `${path}${sep(path)}limit=${limits[0]}`;
    for (let pages = 1; ; pages++) {
      const limit = limits[Math.min(pages - 1, limits.length - 1)];
      const res = await get(url).expect(200);
      const body = res.body as Body;
      const list = body[key] as unknown[];
      expect(list.length).toBeLessThanOrEqual(limit);
      items.push(...list);
      if (body.continuationToken === undefined) {
        expect(Object.keys(body)).toEqual([key]);
        expect(res.headers.link).toBeUndefined();
        return { items, pages };
      }
      expect(list.length).toBe(limit);
      expect(res.headers.link).toBe(
        `<${path}${sep(path)}limit=${limit}&continuationToken=${body.continuationToken}>; rel="next"`,
      );
      const next = limits[Math.min(pages, limits.length - 1)];
      url = `${path}${sep(path)}limit=${next}&continuationToken=${body.continuationToken}`;
      await between();
    }
  }

  /** The token of the first page of `path` with `limit`. */
  async function firstToken(path: string, limit = 1): Promise<string> {
    const body = (await get(`${path}${sep(path)}limit=${limit}`).expect(200)).body as Body;
    expect(body.continuationToken).toEqual(expect.any(String));
    return body.continuationToken!;
  }

  async function expectBadRequest(path: string, field: string): Promise<void> {
    const res = await get(path).set(PROBLEM_HEADERS);
    expect([path, res.status]).toEqual([path, 400]);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    expect((res.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain(
      field,
    );
  }

  const createStream = (s: string, streamName: string, streamTags: string[] = []) =>
    t.http.post(`/v1/scopes/${s}/streams`).send({ streamName, streamTags }).expect(201);
  const removeStream = async (s: string, name: string) => {
    await t.http
      .put(`/v1/scopes/${s}/streams/${name}/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    await t.http.delete(`/v1/scopes/${s}/streams/${name}`).expect(204);
  };
  const rescale = (s: string, name: string, minSegments: number) =>
    t.http
      .put(`/v1/scopes/${s}/streams/${name}`)
      .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments } })
      .expect(200);

  const WINDOW = `from=0&to=${Number.MAX_SAFE_INTEGER}`;
  const lists = () => [
    '/v1/scopes',
    `/v1/scopes/${scope}/streams`,
    `/v1/scopes/${scope}/streams?filter_type=tag&filter_value=blue`,
    `/v1/scopes/${scope}/streams?filter_type=showInternalStreams&filter_value=true`,
    `/v1/scopes/${scope}/streams?showInternalStreams=true`,
    `/v1/scopes/${scope}/readergroups`,
    `/v1/scopes/${scope}/streams/s03/scaling-events?${WINDOW}`,
    '/v1/audit',
  ];

  beforeAll(async () => {
    t = await startTestApp();
    const [{ name }] = await t.sql<{ name: string }>('SELECT current_database() AS name');
    const url = new URL(process.env[TEST_SERVER_ENV]!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    scope = await createScope(t.http, 'paged');
    other = await createScope(t.http, 'other');
    for (let i = 0; i < 12; i++) {
      const name = `s${String(i).padStart(2, '0')}`;
      await createStream(scope, name, i % 3 === 0 ? ['blue'] : ['green']);
    }
    await createStream(other, 's00', ['blue']);
    for (let i = 0; i < 5; i++) {
      await t.http
        .post(`/v1/scopes/${scope}/readergroups`)
        .send({ readerGroupName: `g${i}`, streams: ['s00'] })
        .expect(201);
    }
    // Splits and merges in turn: 1 -> 3 -> 2 -> 5 -> 1 -> 4 -> 2 -> 3 segments.
    for (const count of [3, 2, 5, 1, 4, 2, 3]) await rescale(scope, 's03', count);
  });
  afterAll(() => t.close());

  describe('without paging parameters', () => {
    it('answers every list exactly as before: no token, no Link', async () => {
      for (const path of lists()) {
        const res = await get(path).expect(200);
        expect([path, Object.keys(res.body as Body)]).toEqual([path, [expect.any(String)]]);
        expect(res.headers.link).toBeUndefined();
      }
    });
  });

  describe('bad parameters', () => {
    it('refuses limits outside 1..1000 and non-integers on every list', async () => {
      for (const path of lists()) {
        for (const limit of ['0', '1001', 'abc', '1.5', '', '-1', '1e2', '10&limit=20']) {
          await expectBadRequest(`${path}${sep(path)}limit=${limit}`, 'limit');
        }
      }
    });

    it('names the problem of a bad limit once, whatever it is', async () => {
      for (const limit of ['abc', '0', '1001', '1.5', '']) {
        const res = await get(`/v1/scopes?limit=${limit}`).set(PROBLEM_HEADERS);
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 400,
          body: {
            type: 'urn:tributary:problem:invalid-request',
            title: 'Bad request',
            status: 400,
            detail: 'limit: limit must be an integer from 1 to 1000',
            code: 'INVALID_REQUEST',
            instance: `/v1/scopes?limit=${limit}`,
            requestId: expect.any(String),
            errors: [{ field: 'limit', message: 'limit must be an integer from 1 to 1000' }],
          },
        });
      }
    });

    it('refuses empty, made-up, tampered and truncated tokens on every list', async () => {
      for (const path of lists()) {
        const token = await firstToken(path);
        const bytes = Buffer.from(token, 'base64url');
        // The position's bytes changed, the rest kept: what a forger who guessed its place would send.
        const forged = Buffer.from(bytes);
        forged[20] ^= 1;
        const flipped = `${token.slice(0, 5)}${token[5] === 'A' ? 'B' : 'A'}${token.slice(6)}`;
        for (const bad of [
          '',
          'abc',
          forged.toString('base64url'),
          flipped,
          token.slice(0, -1),
          bytes.subarray(0, -16).toString('base64url'),
          `${token}.x`,
        ]) {
          await expectBadRequest(
            `${path}${sep(path)}continuationToken=${encodeURIComponent(bad)}`,
            'continuationToken',
          );
        }
      }
    });

    it('refuses a token issued for another list, scope, stream, filter or window', async () => {
      const streams = `/v1/scopes/${scope}/streams`;
      const events = `/v1/scopes/${scope}/streams/s03/scaling-events`;
      const foreign: [string, string][] = [
        [streams, '/v1/scopes'],
        ['/v1/scopes', streams],
        [streams, `/v1/scopes/${other}/streams`],
        [`/v1/scopes/${scope}/readergroups`, `/v1/scopes/${other}/readergroups`],
        [`/v1/scopes/${scope}/readergroups`, streams],
        [
          `${streams}?filter_type=tag&filter_value=blue`,
          `${streams}?filter_type=tag&filter_value=green`,
        ],
        [`${streams}?filter_type=tag&filter_value=blue`, streams],
        [streams, `${streams}?showInternalStreams=true`],
        [`${events}?${WINDOW}`, `${events}?from=1&to=${Number.MAX_SAFE_INTEGER}`],
        [`${events}?${WINDOW}`, `/v1/scopes/${scope}/streams/_MARKs03/scaling-events?${WINDOW}`],
        ['/v1/audit', `/v1/audit?principal=anonymous`],
        ['/v1/audit', '/v1/scopes'],
      ];
      for (const [issuedFor, usedOn] of foreign) {
        const token = await firstToken(issuedFor);
        await expectBadRequest(
          `${usedOn}${sep(usedOn)}continuationToken=${token}`,
          'continuationToken',
        );
      }
    });

    it('checks the token before looking for the scope', async () => {
      await expectBadRequest(
        '/v1/scopes/nowhere/streams?continuationToken=abc',
        'continuationToken',
      );
      await t.http.get('/v1/scopes/nowhere/streams?limit=5').expect(404);
    });
  });

  describe('pages', () => {
    it('concatenate to the unpaged answer on every list, whatever the page size', async () => {
      for (const path of lists()) {
        const key = Object.keys((await get(path).expect(200)).body as Body)[0];
        const whole = ((await get(path).expect(200)).body as Body)[key] as unknown[];
        for (const limits of [[1], [2], [3, 1, 5], [1000]]) {
          const walked = await walk(path, key, limits);
          expect([path, limits, walked.items]).toEqual([path, limits, whole]);
        }
        expect((await walk(path, key, [1])).pages).toBe(Math.max(1, whole.length));
      }
    });

    it('count splits and merges of a later page against the previous page', async () => {
      const path = `/v1/scopes/${scope}/streams/s03/scaling-events?${WINDOW}`;
      const whole = ((await get(path).expect(200)).body as { scalingEvents: unknown[] })
        .scalingEvents as { splits: number; merges: number }[];
      expect(whole).toHaveLength(8);
      expect(Math.min(...whole.slice(1).map((e) => e.splits + e.merges))).toBeGreaterThan(0);
      for (const limit of [1, 2, 3]) {
        expect((await walk(path, 'scalingEvents', [limit])).items).toEqual(whole);
      }
      // A window starting inside the history: the epoch in force at `from` comes first.
      const times = whole.map((e) => (e as unknown as { timestamp: number }).timestamp);
      const inside = `/v1/scopes/${scope}/streams/s03/scaling-events?from=${times[3] + 0}&to=${times[6]}`;
      const part = ((await get(inside).expect(200)).body as { scalingEvents: unknown[] })
        .scalingEvents;
      expect(part).toHaveLength(4);
      expect((await walk(inside, 'scalingEvents', [1])).items).toEqual(part);
      expect((await walk(inside, 'scalingEvents', [3, 1])).items).toEqual(part);
    });

    it('read 100 items for a token without limit', async () => {
      await t.sql(
        `INSERT INTO scopes (name) SELECT 'bulk-' || lpad(i::text, 3, '0') FROM generate_series(1, 150) i`,
      );
      try {
        const token = await firstToken('/v1/scopes', 1);
        const res = await get(`/v1/scopes?continuationToken=${token}`).expect(200);
        const body = res.body as { scopes: unknown[]; continuationToken: string };
        expect(body.scopes).toHaveLength(100);
        expect(res.headers.link).toBe(
          `</v1/scopes?continuationToken=${body.continuationToken}&limit=100>; rel="next"`,
        );
      } finally {
        await t.sql(`DELETE FROM scopes WHERE name LIKE 'bulk-%'`);
      }
    });

    it('page the audit trail newest first; without limit and token it is the newest 100', async () => {
      await t.sql(
        `INSERT INTO audit_events (principal, operation, resource, outcome)
         SELECT 'bulk', 'createScope', 'prn::/scope:bulk-' || i, 'SUCCEEDED'
           FROM generate_series(1, 130) i`,
      );
      const unpaged = (await get('/v1/audit?principal=bulk').expect(200)).body as Body;
      expect(Object.keys(unpaged)).toEqual(['auditEvents']);
      expect(unpaged.auditEvents).toHaveLength(100);
      const walked = await walk('/v1/audit?principal=bulk', 'auditEvents', [40, 7, 1000]);
      expect(walked.items).toHaveLength(130);
      expect(walked.items.slice(0, 100)).toEqual(unpaged.auditEvents);
      const ids = walked.items.map((e) => (e as { id: number }).id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });

    it('return every item that existed for the whole walk exactly once, while others change the list', async () => {
      const busy = await createScope(t.http, 'busy');
      const kept: string[] = [];
      const doomed: string[] = [];
      for (let i = 0; i < 30; i++) {
        kept.push(`k${String(i).padStart(2, '0')}`);
        doomed.push(`d${String(i).padStart(2, '0')}`);
      }
      for (const name of [...kept, ...doomed]) await createStream(busy, name);
      let round = 0;
      const churn = async () => {
        const i = round++;
        // Before and after the walk's position alike: names around every letter it passes.
        await Promise.all([
          createStream(busy, `a${i}`),
          createStream(busy, `z${i}`),
          createStream(busy, `k${String(i).padStart(2, '0')}x`),
          i < doomed.length ? removeStream(busy, doomed[i]) : Promise.resolve(),
        ]);
      };
      const walked = await walk(`/v1/scopes/${busy}/streams`, 'streams', [4, 7, 3], churn);
      const names = walked.items.map((s) => (s as { streamName: string }).streamName);
      expect(new Set(names).size).toBe(names.length);
      for (const name of kept) expect(names.filter((n) => n === name)).toEqual([name]);
      expect(names).toEqual([...names].sort());
      expect(round).toBeGreaterThan(3);
    });
  });

  describe('across instances', () => {
    it('honours tokens on a second instance and after a restart, on the same database', async () => {
      const path = `/v1/scopes/${scope}/streams`;
      const token = await firstToken(path, 4);
      // Each token is encrypted under a random IV: the same page has a new one each time.
      const expected = {
        ...((await get(`${path}?continuationToken=${token}&limit=4`).expect(200)).body as Body),
        continuationToken: expect.any(String),
      };
      for (let restart = 0; restart < 2; restart++) {
        const second = await startTestApp({}, () => databaseUrl);
        try {
          const res = await second.http.get(`${path}?continuationToken=${token}&limit=4`);
          expect(res.status).toBe(200);
          expect(res.body).toEqual(expected);
          // And the other way round: its tokens are good here, and lead to the same page.
          const theirs = (await second.http.get(`${path}?limit=4`).expect(200)).body as Body;
          const next = await get(`${path}?continuationToken=${theirs.continuationToken}&limit=4`);
          expect(next.status).toBe(200);
          expect(next.body).toEqual(expected);
        } finally {
          await second.close();
        }
      }
    });

    it('derives its key from one stored in the database, made at migration time', async () => {
      const rows = await t.sql<{ length: number }>(
        'SELECT length(key) AS length FROM pagination_key',
      );
      expect(rows).toEqual([{ length: 32 }]);
    });
  });

  it('keeps the legacy filter in the Link, where the request had it', async () => {
    const path = `/v1/scopes/${scope}/streams?showInternalStreams=true`;
    const res = await get(`${path}&limit=2`).expect(200);
    const token = (res.body as Body).continuationToken!;
    expect(res.headers.link).toBe(
      `</v1/scopes/${scope}/streams?showInternalStreams=true&limit=2&continuationToken=${token}>; rel="next"`,
    );
  });
});
