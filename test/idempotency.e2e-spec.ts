import { Client } from 'pg';
import type { Response } from 'supertest';
import { IdempotencyPurgeService } from '../src/idempotency/idempotency-purge.service';
import { IdempotencyRepository } from '../src/idempotency/idempotency.repository';
import { basic, writeAccounts } from './support/accounts';
import { eventually } from './support/eventually';
import { ServiceProcess } from './support/service-process';
import { PROBLEM_HEADERS, uniqueName } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

const KEY = 'Idempotency-Key';
const REPLAYED = 'idempotent-replayed';

/** What a client compares between an answer and its replay. */
const answerOf = (res: Response) => ({
  status: res.status,
  body: res.text,
  contentType: res.headers['content-type'],
  etag: res.headers.etag,
  location: res.headers.location,
});

const fixed = (minSegments: number) => ({ type: 'FIXED_NUM_SEGMENTS', minSegments });

/** docs/extensions.md section 3: Idempotency-Key on every POST. */
describe('Idempotent creates (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: TestApp;
  let sql: Client;

  /** Another instance of the service on the same database. */
  const instance = (env: NodeJS.ProcessEnv = {}) => startTestApp(env, () => database.url);
  const auditRowsOf = async (resource: string): Promise<number> =>
    (
      await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM audit_events WHERE resource = $1',
        [resource],
      )
    ).rows[0].n;
  const keptRows = async (key: string): Promise<number> =>
    (
      await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM idempotency_records WHERE key = $1',
        [key],
      )
    ).rows[0].n;
  const streamExists = async (scope: string, stream: string): Promise<boolean> =>
    (await sql.query('SELECT 1 FROM streams WHERE scope_name = $1 AND name = $2', [scope, stream]))
      .rows.length > 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await instance();
    sql = new Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await t?.close();
    await database?.drop();
  });

  describe('a retry of a success', () => {
    it('gets the same status, body and headers, marked replayed, and changes nothing', async () => {
      const scopeName = uniqueName('scope');
      const key = uniqueName('key');
      const first = await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName });
      expect(first.status).toBe(201);
      expect(first.headers[REPLAYED]).toBeUndefined();
      expect(await auditRowsOf(`prn::/scope:${scopeName}`)).toBe(1);

      // The same body with its fields in another order and other spacing is the same request.
      const retry = await t.http
        .post('/v1/scopes')
        .set(KEY, key)
        .set('Content-Type', 'application/json')
        .send(`{ "scopeName" : "${scopeName}" }`);
      expect(answerOf(retry)).toEqual(answerOf(first));
      expect(retry.headers[REPLAYED]).toBe('true');
      expect(await auditRowsOf(`prn::/scope:${scopeName}`)).toBe(1);
      expect(await keptRows(key)).toBe(1);
    });

    it('replays a stream create and a reader group create alike (every POST)', async () => {
      const scope = uniqueName('scope');
      await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
      const stream = { streamName: 'orders', scalingPolicy: fixed(3), streamTags: ['b', 'a'] };
      const group = { readerGroupName: 'billing', streams: ['orders'] };
      const posts: Array<[string, object]> = [
        [`/v1/scopes/${scope}/streams`, stream],
        [`/v1/scopes/${scope}/readergroups`, group],
      ];
      for (const [path, body] of posts) {
        const key = uniqueName('key');
        const first = await t.http.post(path).set(KEY, key).send(body);
        expect([path, first.status]).toEqual([path, 201]);
        const retry = await t.http.post(path).set(KEY, key).send(body);
        expect(answerOf(retry)).toEqual(answerOf(first));
        expect(retry.headers[REPLAYED]).toBe('true');
      }
      expect(await auditRowsOf(`prn::/scope:${scope}/stream:orders`)).toBe(1);
      expect(await auditRowsOf(`prn::/scope:${scope}/reader-group:billing`)).toBe(1);
    });

    it('answers a POST without the header as before, and keeps nothing for it', async () => {
      const scopeName = uniqueName('scope');
      const before = (await sql.query('SELECT count(*)::int AS n FROM idempotency_records')).rows[0]
        .n as number;
      const first = await t.http.post('/v1/scopes').send({ scopeName });
      expect([first.status, first.body]).toEqual([201, { scopeName }]);
      expect(first.headers[REPLAYED]).toBeUndefined();
      const again = await t.http.post('/v1/scopes').send({ scopeName });
      expect([again.status, again.text, again.headers[REPLAYED]]).toEqual([409, '', undefined]);
      const after = (await sql.query('SELECT count(*)::int AS n FROM idempotency_records')).rows[0]
        .n as number;
      expect(after).toBe(before);
    });
  });

  describe('a retry of a client error', () => {
    it('replays a 409 as it was, even once the cause is gone', async () => {
      const scopeName = uniqueName('scope');
      await t.http.post('/v1/scopes').send({ scopeName }).expect(201);
      const key = uniqueName('key');
      const first = await t.http
        .post('/v1/scopes')
        .set(KEY, key)
        .set(PROBLEM_HEADERS)
        .send({ scopeName });
      expect([first.status, first.body.code]).toEqual([409, 'SCOPE_EXISTS']);
      await t.http.delete(`/v1/scopes/${scopeName}`).expect(204);

      const retry = await t.http
        .post('/v1/scopes')
        .set(KEY, key)
        .set(PROBLEM_HEADERS)
        .send({ scopeName });
      expect(answerOf(retry)).toEqual(answerOf(first));
      expect(retry.headers[REPLAYED]).toBe('true');
      // Without asking for a problem document, the replayed 409 is bodiless, as every 409 is.
      const plain = await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName });
      expect([plain.status, plain.text, plain.headers[REPLAYED]]).toEqual([409, '', 'true']);
      await t.http.get(`/v1/scopes/${scopeName}`).expect(404);
    });

    it('replays a 404 even once the scope exists', async () => {
      const scope = uniqueName('scope');
      const key = uniqueName('key');
      const path = `/v1/scopes/${scope}/streams`;
      const body = { streamName: 'orders' };
      const first = await t.http.post(path).set(KEY, key).set(PROBLEM_HEADERS).send(body);
      expect([first.status, first.body.code]).toEqual([404, 'SCOPE_NOT_FOUND']);
      await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);

      const retry = await t.http.post(path).set(KEY, key).set(PROBLEM_HEADERS).send(body);
      expect(answerOf(retry)).toEqual(answerOf(first));
      expect(retry.headers[REPLAYED]).toBe('true');
      expect(await streamExists(scope, 'orders')).toBe(false);
    });

    it('replays a 400 of an invalid body, naming the same fields', async () => {
      const scope = uniqueName('scope');
      await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
      const key = uniqueName('key');
      const path = `/v1/scopes/${scope}/streams`;
      const body = { streamName: 'orders', scalingPolicy: fixed(0) };
      const first = await t.http.post(path).set(KEY, key).send(body);
      expect(first.status).toBe(400);
      expect(first.body.errors).toEqual([
        expect.objectContaining({ field: 'scalingPolicy.minSegments' }),
      ]);
      const retry = await t.http.post(path).set(KEY, key).send(body);
      expect(answerOf(retry)).toEqual(answerOf(first));
      expect(retry.headers[REPLAYED]).toBe('true');
    });
  });

  describe('a key used for another request', () => {
    it('answers 422 IDEMPOTENCY_KEY_REUSED for another body, and changes nothing', async () => {
      const key = uniqueName('key');
      const scopeName = uniqueName('scope');
      await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName }).expect(201);
      const other = uniqueName('scope');
      const res = await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName: other });
      expect(res.status).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
      expect(res.headers[REPLAYED]).toBeUndefined();
      await t.http.get(`/v1/scopes/${other}`).expect(404);
    });

    it('answers 422 for another path', async () => {
      const key = uniqueName('key');
      const scope = uniqueName('scope');
      await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName: scope }).expect(201);
      const res = await t.http
        .post(`/v1/scopes/${scope}/streams`)
        .set(KEY, key)
        .send({ streamName: 'orders' });
      expect([res.status, res.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
      expect(await streamExists(scope, 'orders')).toBe(false);
    });
  });

  describe('malformed keys', () => {
    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['non-ASCII', 'clé'],
      ['a control character (tab)', 'a\tb'],
      ['a space', 'a b'],
    ])('refuses %s with 400 naming the header, and changes nothing', async (_name, key) => {
      const scopeName = uniqueName('scope');
      const res = await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        code: 'INVALID_REQUEST',
        errors: [expect.objectContaining({ field: KEY })],
      });
      await t.http.get(`/v1/scopes/${scopeName}`).expect(404);
    });

    it('accepts 255 visible ASCII characters', async () => {
      const key = `${'!~'.repeat(100)}${uniqueName('k').padEnd(55, 'z')}`;
      expect(key).toHaveLength(255);
      await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName: uniqueName() }).expect(201);
    });
  });

  describe('the stored answer and the change', () => {
    it('commit together: a create whose answer cannot be kept leaves no stream and no audit row', async () => {
      const scope = uniqueName('scope');
      await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
      // Taking the key (status still null) passes; writing its answer does not.
      await sql.query(`ALTER TABLE idempotency_records ADD CONSTRAINT refuse_answer
                         CHECK (key <> 'cannot-keep' OR status IS NULL)`);
      try {
        const res = await t.http
          .post(`/v1/scopes/${scope}/streams`)
          .set(KEY, 'cannot-keep')
          .send({ streamName: 'doomed' });
        expect(res.status).toBe(500);
      } finally {
        await sql.query('ALTER TABLE idempotency_records DROP CONSTRAINT refuse_answer');
      }
      expect(await streamExists(scope, 'doomed')).toBe(false);
      expect(await auditRowsOf(`prn::/scope:${scope}/stream:doomed`)).toBe(0);
      expect(await keptRows('cannot-keep')).toBe(0);
      // 5xx is not kept: the retry runs, and succeeds.
      const retry = await t.http
        .post(`/v1/scopes/${scope}/streams`)
        .set(KEY, 'cannot-keep')
        .send({ streamName: 'doomed' });
      expect([retry.status, retry.headers[REPLAYED]]).toEqual([201, undefined]);
      expect(await auditRowsOf(`prn::/scope:${scope}/stream:doomed`)).toBe(1);
    });
  });

  describe('across instances', () => {
    it('replays after a restart (a new instance on the same database)', async () => {
      const first = await instance();
      const key = uniqueName('key');
      const scopeName = uniqueName('scope');
      let original: Response;
      try {
        original = await first.http.post('/v1/scopes').set(KEY, key).send({ scopeName });
        expect(original.status).toBe(201);
      } finally {
        await first.close();
      }
      const second = await instance();
      try {
        const retry = await second.http.post('/v1/scopes').set(KEY, key).send({ scopeName });
        expect(answerOf(retry)).toEqual(answerOf(original));
        expect(retry.headers[REPLAYED]).toBe('true');
      } finally {
        await second.close();
      }
    });

    describe('a retry while the first request still runs, on another instance', () => {
      let other: TestApp;
      let blocker: Client;

      beforeAll(async () => {
        // Its lock waits end at 1 s: long enough to wait out a short first request.
        other = await instance({ DB_STATEMENT_TIMEOUT_MS: '1000' });
        blocker = new Client({ connectionString: database.url });
        await blocker.connect();
      });
      afterAll(async () => {
        await blocker?.end();
        await other?.close();
      });

      /** Holds the scope's row so that creating a stream in it waits. */
      const holdScope = async (scope: string) => {
        await blocker.query('BEGIN');
        await blocker.query('SELECT 1 FROM scopes WHERE name = $1 FOR UPDATE', [scope]);
      };
      /** How many of the service's statements wait for a lock. */
      const waiting = async () =>
        (
          await sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0].n;

      it('waits for it and replays its answer: one change, one audit row', async () => {
        const scope = uniqueName('scope');
        await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
        const key = uniqueName('key');
        const path = `/v1/scopes/${scope}/streams`;
        const body = { streamName: 'orders', scalingPolicy: fixed(2) };
        await holdScope(scope);
        const first = t.http
          .post(path)
          .set(KEY, key)
          .send(body)
          .then((res) => res);
        expect(await eventually(waiting, 1)).toBe(1);
        const retry = other.http
          .post(path)
          .set(KEY, key)
          .send(body)
          .then((res) => res);
        expect(await eventually(waiting, 2)).toBe(2);
        await blocker.query('COMMIT');
        const [a, b] = await Promise.all([first, retry]);

        expect([a.status, a.headers[REPLAYED]]).toEqual([201, undefined]);
        expect(answerOf(b)).toEqual(answerOf(a));
        expect(b.headers[REPLAYED]).toBe('true');
        expect(await auditRowsOf(`prn::/scope:${scope}/stream:orders`)).toBe(1);
      });

      it('answers 409 IDEMPOTENCY_KEY_IN_USE with Retry-After when the wait is too long', async () => {
        const scope = uniqueName('scope');
        await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
        const key = uniqueName('key');
        const path = `/v1/scopes/${scope}/streams`;
        const body = { streamName: 'orders' };
        await holdScope(scope);
        let first: Promise<Response> | undefined;
        try {
          first = t.http
            .post(path)
            .set(KEY, key)
            .send(body)
            .then((res) => res);
          expect(await eventually(waiting, 1)).toBe(1);
          const busy = await other.http.post(path).set(KEY, key).set(PROBLEM_HEADERS).send(body);
          expect([busy.status, busy.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
          expect(busy.headers['retry-after']).toBe('1');
          expect(busy.headers[REPLAYED]).toBeUndefined();
        } finally {
          await blocker.query('COMMIT');
        }
        const a = await first;
        expect([a.status, a.headers[REPLAYED]]).toEqual([201, undefined]);
        const later = await other.http.post(path).set(KEY, key).send(body);
        expect(answerOf(later)).toEqual(answerOf(a));
        expect(await auditRowsOf(`prn::/scope:${scope}/stream:orders`)).toBe(1);
      });

      it('lets exactly one of many concurrent retries on two instances change anything', async () => {
        const scope = uniqueName('scope');
        await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
        const key = uniqueName('key');
        const path = `/v1/scopes/${scope}/readergroups`;
        await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: 's' }).expect(201);
        const body = { readerGroupName: 'g', streams: ['s'] };
        const answers = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            (i % 2 === 0 ? t : other).http.post(path).set(KEY, key).send(body),
          ),
        );
        const statuses = answers.map((res) => res.status);
        expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
        const fresh = answers.filter((res) => res.status === 201 && !res.headers[REPLAYED]);
        expect(fresh).toHaveLength(1);
        for (const res of answers.filter((r) => r.status === 201)) {
          expect(res.text).toBe(fresh[0].text);
        }
        for (const res of answers.filter((r) => r.status === 409)) {
          expect(res.headers['retry-after']).toBe('1');
        }
        expect(await auditRowsOf(`prn::/scope:${scope}/reader-group:g`)).toBe(1);
      });
    });
  });

  describe('two service processes on one database', () => {
    let services: ServiceProcess[];

    beforeAll(async () => {
      services = await ServiceProcess.instances(database.url);
    });
    afterAll(() => Promise.all(services?.map((service) => service.stop()) ?? []));

    it('lets exactly one of many concurrent retries of a key change anything', async () => {
      const scope = uniqueName('scope');
      await t.http.post('/v1/scopes').send({ scopeName: scope }).expect(201);
      const key = uniqueName('key');
      const body = JSON.stringify({ streamName: 'raced', scalingPolicy: fixed(4) });
      const answers = await Promise.all(
        Array.from({ length: 16 }, async (_, i) => {
          const res = await fetch(`${services[i % 2].baseUrl}/v1/scopes/${scope}/streams`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', [KEY]: key },
            body,
          });
          return {
            status: res.status,
            replayed: res.headers.get(REPLAYED),
            text: await res.text(),
          };
        }),
      );
      const fresh = answers.filter((a) => a.status === 201 && a.replayed === null);
      expect(fresh).toHaveLength(1);
      for (const answer of answers.filter((a) => a !== fresh[0])) {
        expect([answer.status, answer.replayed]).toEqual(
          answer.status === 201 ? [201, 'true'] : [409, null],
        );
        if (answer.status === 201) expect(answer.text).toBe(fresh[0].text);
      }
      expect(await auditRowsOf(`prn::/scope:${scope}/stream:raced`)).toBe(1);
      expect(await keptRows(key)).toBe(1);
    });
  });

  describe('expiry', () => {
    const ageBy = (key: string, hours: number) =>
      sql.query(
        `UPDATE idempotency_records SET created_at = created_at - make_interval(hours => $2)
          WHERE key = $1`,
        [key, hours],
      );

    it('forgets a key after IDEMPOTENCY_TTL_HOURS: the request runs again', async () => {
      const key = uniqueName('key');
      const scopeName = uniqueName('scope');
      await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName }).expect(201);
      await ageBy(key, 23);
      const within = await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName });
      expect([within.status, within.headers[REPLAYED]]).toEqual([201, 'true']);

      await ageBy(key, 2);
      const expired = await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName });
      expect([expired.status, expired.headers[REPLAYED]]).toEqual([409, undefined]);
      // ... and its new answer is the one kept now, for another body too once that expires.
      const again = await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName });
      expect([again.status, again.headers[REPLAYED]]).toEqual([409, 'true']);
      await ageBy(key, 25);
      const other = uniqueName('scope');
      await t.http.post('/v1/scopes').set(KEY, key).send({ scopeName: other }).expect(201);
      expect(await keptRows(key)).toBe(1);
      expect(await auditRowsOf(`prn::/scope:${scopeName}`)).toBe(1);
    });

    it('follows the configured TTL', async () => {
      const short = await instance({ IDEMPOTENCY_TTL_HOURS: '1' });
      try {
        const key = uniqueName('key');
        const scopeName = uniqueName('scope');
        await short.http.post('/v1/scopes').set(KEY, key).send({ scopeName }).expect(201);
        await ageBy(key, 2);
        const expired = await short.http.post('/v1/scopes').set(KEY, key).send({ scopeName });
        expect([expired.status, expired.headers[REPLAYED]]).toEqual([409, undefined]);
      } finally {
        await short.close();
      }
    });

    it('purges expired keys in bounded batches and keeps the live ones', async () => {
      const prefix = uniqueName('expired');
      await sql.query(
        `INSERT INTO idempotency_records
                (principal, key, method, path, body_digest, status, body, created_at)
         SELECT 'anonymous', $1 || i, 'POST', '/v1/scopes', 'd', 201, '{}',
                now() - interval '25 hours' - make_interval(secs => i)
           FROM generate_series(1, 2500) AS i`,
        [prefix],
      );
      const live = uniqueName('key');
      await t.http.post('/v1/scopes').set(KEY, live).send({ scopeName: uniqueName() }).expect(201);

      const repository = t.app.get(IdempotencyRepository);
      expect(await repository.deleteExpired(24, 1000)).toBe(1000);
      expect(await t.app.get(IdempotencyPurgeService).purge(400)).toBeGreaterThanOrEqual(1500);
      const left = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM idempotency_records WHERE created_at < now() - interval '24 hours'`,
      );
      expect(left.rows[0].n).toBe(0);
      expect(await keptRows(live)).toBe(1);
    });
  });

  describe('with authentication on', () => {
    let secured: TestApp;
    const ACCOUNTS = {
      alice: 'prn::*,READ_UPDATE',
      bob: 'prn::*,READ_UPDATE',
      reader: 'prn::*,READ',
    };

    beforeAll(async () => {
      secured = await instance({
        AUTH_ENABLED: 'true',
        AUTH_ACCOUNTS_FILE: await writeAccounts(ACCOUNTS),
        AUTH_MAX_FAILURES: '1000',
      });
    });
    afterAll(() => secured?.close());

    const post = (user: string, key: string, scopeName: string) =>
      secured.http
        .post('/v1/scopes')
        .set('Authorization', basic(user))
        .set(KEY, key)
        .send({ scopeName });

    it("keeps keys per account: one account never gets another's answer", async () => {
      const key = uniqueName('shared-key');
      const aliceScope = uniqueName('alice');
      const bobScope = uniqueName('bob');
      expect((await post('alice', key, aliceScope)).status).toBe(201);
      // Bob's request with Alice's key and another body is his own, not a reuse.
      const bob = await post('bob', key, bobScope);
      expect([bob.status, bob.headers[REPLAYED]]).toEqual([201, undefined]);
      // Bob's request with Alice's key and her body runs too (and finds her scope).
      const bobAgain = await secured.http
        .post('/v1/scopes')
        .set('Authorization', basic('bob'))
        .set(KEY, uniqueName('k'))
        .send({ scopeName: aliceScope });
      expect(bobAgain.status).toBe(409);
      const aliceRetry = await post('alice', key, aliceScope);
      expect([aliceRetry.status, aliceRetry.body, aliceRetry.headers[REPLAYED]]).toEqual([
        201,
        { scopeName: aliceScope },
        'true',
      ]);
      const bobRetry = await post('bob', key, bobScope);
      expect([bobRetry.status, bobRetry.body, bobRetry.headers[REPLAYED]]).toEqual([
        201,
        { scopeName: bobScope },
        'true',
      ]);
      const principals = await sql.query<{ principal: string }>(
        'SELECT principal FROM idempotency_records WHERE key = $1 ORDER BY principal',
        [key],
      );
      expect(principals.rows.map((r) => r.principal)).toEqual(['alice', 'bob']);
    });

    it('keeps neither a 401 nor a 403: the retry with the right credentials runs', async () => {
      const key = uniqueName('key');
      const scopeName = uniqueName('scope');
      const unauthenticated = await secured.http
        .post('/v1/scopes')
        .set('Authorization', basic('alice', 'wrong'))
        .set(KEY, key)
        .send({ scopeName });
      expect([unauthenticated.status, unauthenticated.headers[REPLAYED]]).toEqual([401, undefined]);
      const forbidden = await post('reader', key, scopeName);
      expect([forbidden.status, forbidden.headers[REPLAYED]]).toEqual([403, undefined]);
      const forbiddenAgain = await post('reader', key, scopeName);
      expect([forbiddenAgain.status, forbiddenAgain.headers[REPLAYED]]).toEqual([403, undefined]);
      expect(await keptRows(key)).toBe(0);

      const allowed = await post('alice', key, scopeName);
      expect([allowed.status, allowed.headers[REPLAYED]]).toEqual([201, undefined]);
      expect(await auditRowsOf(`prn::/scope:${scopeName}`)).toBe(1);
    });
  });
});
