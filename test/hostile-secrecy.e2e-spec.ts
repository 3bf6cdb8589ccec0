import { createHmac } from 'node:crypto';
import { basic, writeAccounts } from './support/accounts';
import { PROBLEM_HEADERS } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Hostile clients that try to learn what they may not read (docs/extensions.md sections 1, 4
 * and 5; docs/behaviour.md sections 6 and 8): names carried in continuation tokens, streams of
 * other scopes named by a reader group or an apply, and reader groups in a stream's description.
 */
const ACCOUNTS = {
  admin: 'prn::*,READ_UPDATE',
  /** Lists scopes, reads `open`, and `pub` with all in it: nothing of the other scopes. */
  reader: 'prn::/,READ;prn::/scope:open,READ;prn::/scope:pub,READ;prn::/scope:pub/*,READ',
  /** Changes what is in `pub`, and reads nothing else. */
  writer: 'prn::/scope:pub,READ_UPDATE;prn::/scope:pub/*,READ_UPDATE',
};
type User = keyof typeof ACCOUNTS;

/** Names of every length a scope can have, hidden ones between and around the readable ones. */
const HIDDEN_SCOPES = ['Secret', 'a', 'm-hidden-and-longer', 'secret', 'z'.repeat(255)];
const READABLE_SCOPES = ['open', 'pub'];

describe('What a caller may not read (e2e)', () => {
  let t: TestApp;
  const as = (user: User) => ({ Authorization: basic(user) });

  beforeAll(async () => {
    t = await startTestApp({
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: await writeAccounts(ACCOUNTS),
      AUTH_MAX_FAILURES: '1000',
    });
    const admin = as('admin');
    for (const scopeName of [...HIDDEN_SCOPES, ...READABLE_SCOPES]) {
      await t.http.post('/v1/scopes').set(admin).send({ scopeName }).expect(201);
    }
    for (const [scope, streamName] of [
      ['pub', 'p1'],
      ['pub', 'p2'],
      ['secret', 's2'],
    ]) {
      await t.http.post(`/v1/scopes/${scope}/streams`).set(admin).send({ streamName }).expect(201);
    }
    for (const [scope, readerGroupName, streams] of [
      ['pub', 'gp', ['p1']],
      ['secret', 'gs', ['pub/p1']],
      ['pub', 'gx', ['p1', 'secret/s2']],
    ] as const) {
      await t.http
        .post(`/v1/scopes/${scope}/readergroups`)
        .set(admin)
        .send({ readerGroupName, streams })
        .expect(201);
    }
  });
  afterAll(() => t.close());

  /** Every page of `path` with `limit=1`, as `user`: the names shown and the tokens issued. */
  async function walk(user: User, path: string) {
    const shown: string[] = [];
    const tokens: string[] = [];
    let url = `${path}?limit=1`;
    for (let page = 0; page < 50; page++) {
      const res = await t.http.get(url).set(as(user)).expect(200);
      const body = res.body as { scopes: { scopeName: string }[]; continuationToken?: string };
      shown.push(...body.scopes.map((s) => s.scopeName));
      if (body.continuationToken === undefined) return { shown, tokens };
      tokens.push(body.continuationToken);
      url = `${path}?limit=1&continuationToken=${body.continuationToken}`;
    }
    throw new Error(`${path} did not end within 50 pages`);
  }

  /** The answer's status and problem document, but its request id (which every answer has). */
  const problemOf = (res: { status: number; body: Record<string, unknown> }) => {
    expect(res.body).not.toHaveProperty('stack');
    expect(res.body.requestId).toEqual(expect.any(String));
    return { status: res.status, ...res.body, requestId: undefined };
  };

  describe('continuation tokens', () => {
    it('carry no name: a reader paging one by one sees only readable names', async () => {
      const all = [...HIDDEN_SCOPES, ...READABLE_SCOPES];
      const { shown, tokens } = await walk('reader', '/v1/scopes');
      expect(shown).toEqual(READABLE_SCOPES);
      // A token after each hidden and each readable name but the last.
      expect(tokens).toHaveLength(all.length - 1);
      for (const token of tokens) {
        expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
        const bytes = Buffer.from(token, 'base64url').toString('latin1');
        // Names long enough that random bytes cannot spell them by chance.
        for (const name of all.filter((n) => n.length >= 6)) {
          expect([token, bytes.includes(name) || token.includes(name)]).toEqual([token, false]);
        }
      }
      // Not even a name's length: a one-letter name and a 255-letter one make tokens alike.
      expect(new Set(tokens.map((token) => token.length)).size).toBe(1);
      // The same position twice makes two different tokens.
      const again = await walk('reader', '/v1/scopes');
      expect(again.shown).toEqual(READABLE_SCOPES);
      expect(again.tokens.filter((token) => tokens.includes(token))).toEqual([]);
    });

    it('refuse a tampered, foreign or old-format token with 400, as any bad token', async () => {
      const { tokens } = await walk('admin', '/v1/scopes');
      const token = tokens[1];
      const at = Math.floor(token.length / 2);
      const flipped = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
      const streamsPage = await t.http
        .get('/v1/scopes/pub/streams?limit=1')
        .set(as('admin'))
        .expect(200);
      const foreign = (streamsPage.body as { continuationToken: string }).continuationToken;
      // What the service issued before tokens were encrypted: JSON of the list and position,
      // signed with the same stored key.
      const [{ key }] = await t.sql<{ key: Buffer }>('SELECT key FROM pagination_key');
      const body = Buffer.from(JSON.stringify({ l: '["scopes"]', a: 'a' })).toString('base64url');
      const mac = createHmac('sha256', key).update(body).digest().subarray(0, 16);
      const oldFormat = `${body}.${mac.toString('base64url')}`;
      for (const bad of [flipped, token.slice(0, -4), `${token}AAAA`, foreign, oldFormat]) {
        const res = await t.http
          .get(`/v1/scopes?limit=1&continuationToken=${encodeURIComponent(bad)}`)
          .set(as('admin'))
          .set(PROBLEM_HEADERS);
        expect(problemOf(res)).toEqual({
          status: 400,
          type: 'urn:tributary:problem:invalid-request',
          title: 'Bad request',
          code: 'INVALID_REQUEST',
          detail: 'continuationToken: is not a token this service issued for this list',
          instance: expect.any(String),
          errors: [
            {
              field: 'continuationToken',
              message: 'is not a token this service issued for this list',
            },
          ],
        });
      }
      // The token itself was good.
      await t.http
        .get(`/v1/scopes?limit=1&continuationToken=${token}`)
        .set(as('admin'))
        .expect(200);
    });
  });

  describe('reader groups reading streams of other scopes', () => {
    const groupRows = (name: string) =>
      t.sql(
        `SELECT name FROM reader_groups WHERE name = $1
         UNION ALL SELECT name FROM streams WHERE name IN ($2, $3)`,
        [name, `_RG${name}`, `_MARK_RG${name}`],
      );
    const deniedCount = async (operation: string): Promise<number> =>
      (
        await t.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM audit_events
            WHERE outcome = 'DENIED' AND principal = 'writer' AND operation = $1`,
          [operation],
        )
      )[0].n;
    const create = (streams: string[]) =>
      t.http
        .post('/v1/scopes/pub/readergroups')
        .set(as('writer'))
        .set(PROBLEM_HEADERS)
        .send({ readerGroupName: 'g1', streams });
    const refusal = (stream: string) => ({
      status: 403,
      type: 'urn:tributary:problem:permission-denied',
      title: 'Forbidden',
      code: 'PERMISSION_DENIED',
      detail: `READ on prn::/scope:secret/stream:${stream} is required`,
      instance: '/v1/scopes/pub/readergroups',
      missing: [{ permission: 'READ', resource: `prn::/scope:secret/stream:${stream}` }],
    });

    it('refuse to create one with 403 naming each stream it may not read, existing or not', async () => {
      const before = await deniedCount('createReaderGroup');
      const existing = await create(['p1', 'secret/s2']);
      const missing = await create(['p1', 'secret/zzz']);
      expect(problemOf(existing)).toEqual(refusal('s2'));
      expect(problemOf(missing)).toEqual(refusal('zzz'));
      expect(await groupRows('g1')).toEqual([]);
      expect(await deniedCount('createReaderGroup')).toBe(before + 2);

      // Several at once; and with an Idempotency-Key, the refusal is not kept as the answer.
      const both = await create(['secret/s2', 'open/o', 'p2']).set('Idempotency-Key', 'rg-1');
      expect(both.status).toBe(403);
      expect(both.body.missing).toEqual([
        { permission: 'READ', resource: 'prn::/scope:secret/stream:s2' },
        { permission: 'READ', resource: 'prn::/scope:open/stream:o' },
      ]);
      // A readable stream that does not exist is the usual 404; one that exists, a 201.
      const absent = await create(['p1', 'nope']).expect(404);
      expect(absent.body.detail).toBe('Stream pub/nope does not exist');
      const made = await create(['p2', 'pub/p2']).set('Idempotency-Key', 'rg-1').expect(201);
      expect(made.body.streamList).toEqual(['pub/p2']);
    });

    it('refuse an apply that names them, dry run or not, before anything is looked up', async () => {
      const document = (stream: string) => ({
        scopes: [
          {
            scopeName: 'pub',
            streams: [{ streamName: 'p3' }],
            readerGroups: [{ readerGroupName: 'g2', streams: ['p1', stream] }],
          },
        ],
      });
      const before = await deniedCount('applyDocument');
      for (const dryRun of [true, false]) {
        const answers = [];
        for (const stream of ['secret/s2', 'secret/zzz']) {
          const res = await t.http
            .post(`/v1/apply${dryRun ? '?dryRun=true' : ''}`)
            .set(as('writer'))
            .set(PROBLEM_HEADERS)
            .send(document(stream));
          answers.push(problemOf(res));
        }
        const [existing, missing] = answers;
        expect(existing).toEqual({
          status: 403,
          type: 'urn:tributary:problem:permission-denied',
          title: 'Forbidden',
          code: 'PERMISSION_DENIED',
          detail: 'Nothing was applied; missing: READ on prn::/scope:secret/stream:s2',
          instance: dryRun ? '/v1/apply?dryRun=true' : '/v1/apply',
          missing: [{ permission: 'READ', resource: 'prn::/scope:secret/stream:s2' }],
        });
        expect(JSON.stringify(missing)).toBe(JSON.stringify(existing).replaceAll('s2', 'zzz'));
      }
      expect(await groupRows('g2')).toEqual([]);
      expect(await t.sql(`SELECT 1 FROM streams WHERE name = 'p3'`)).toEqual([]);
      expect(await deniedCount('applyDocument')).toBe(before + 4);
    });

    it('refuse an apply of a scope the caller may not read without naming what is in it', async () => {
      const answers = [];
      for (const scopeName of ['secret', 'nowhere']) {
        const res = await t.http
          .post('/v1/apply')
          .set(as('writer'))
          .set(PROBLEM_HEADERS)
          .send({ scopes: [{ scopeName, streams: [{ streamName: 's2' }] }], prune: true });
        answers.push(problemOf(res));
      }
      const [existing, missing] = answers;
      expect(existing).toEqual({
        status: 403,
        type: 'urn:tributary:problem:permission-denied',
        title: 'Forbidden',
        code: 'PERMISSION_DENIED',
        detail: 'Nothing was applied; missing: READ on prn::/scope:secret',
        instance: '/v1/apply',
        missing: [{ permission: 'READ', resource: 'prn::/scope:secret' }],
      });
      expect(JSON.stringify(missing)).toBe(
        JSON.stringify(existing).replaceAll('secret', 'nowhere'),
      );
    });
  });

  describe('answers that name reader groups and their streams', () => {
    it('describe a stream with only the reader groups the caller may read, and how many others', async () => {
      const describe = (user: User) =>
        t.http.get('/v1/scopes/pub/streams/p1/description').set(as(user)).expect(200);
      const reader = (await describe('reader')).body;
      expect(reader.readerGroups).toEqual(['pub/gp', 'pub/gx']);
      expect(reader.hiddenReaderGroups).toBe(1);
      const admin = (await describe('admin')).body;
      expect(admin.readerGroups).toEqual(['pub/gp', 'pub/gx', 'secret/gs']);
      expect(admin).not.toHaveProperty('hiddenReaderGroups');
    });

    it('show a reader group with only the streams the caller may read', async () => {
      const get = (user: User) =>
        t.http.get('/v1/scopes/pub/readergroups/gx').set(as(user)).expect(200);
      expect((await get('reader')).body.streamList).toEqual(['pub/p1']);
      expect((await get('admin')).body.streamList).toEqual(['pub/p1', 'secret/s2']);
    });

    it('plan an apply without naming the streams of a group the caller may not read', async () => {
      const res = await t.http
        .post('/v1/apply?dryRun=true')
        .set(as('writer'))
        .set(PROBLEM_HEADERS)
        .send({
          scopes: [
            { scopeName: 'pub', readerGroups: [{ readerGroupName: 'gx', streams: ['p1'] }] },
          ],
        })
        .expect(409);
      expect(res.body.conflicts).toEqual([
        {
          resource: 'prn::/scope:pub/reader-group:gx',
          message: 'Reader group pub/gx reads other streams (pub/p1 and 1 stream not shown)',
        },
      ]);
      expect(JSON.stringify(res.body)).not.toContain('secret');
    });
  });
});
