import { Client } from 'pg';
import { createScope, PROBLEM_HEADERS, uniqueName } from './support/factories';
import { ServiceProcess } from './support/service-process';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

/** `"<created µs>.<version>"`: the version part of a tag the service issued. */
const versionOf = (etag: string): number => {
  const match = /^"(\d+)\.(\d+)"$/.exec(etag);
  if (!match) throw new Error(`not a tag of this service: ${etag}`);
  return Number(match[2]);
};
/** The same state under a weak tag. */
const weak = (etag: string): string => `W/${etag}`;
/** A tag of the same resource for another version. */
const otherVersion = (etag: string, version: number): string =>
  etag.replace(/\.\d+"$/, `.${version}"`);

const SEALED = { streamState: 'SEALED' };
const fixed = (minSegments: number) => ({
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
});

/** docs/extensions.md section 2: entity tags, If-None-Match on reads, If-Match on changes. */
describe('Conditional requests (e2e)', () => {
  let t: TestApp;
  let scope: string;

  const streamPath = (stream: string) => `/v1/scopes/${scope}/streams/${stream}`;
  const groupPath = (group: string) => `/v1/scopes/${scope}/readergroups/${group}`;
  const etagOf = async (path: string): Promise<string> =>
    (await t.http.get(path).expect(200)).headers.etag;
  const createStream = async (name = uniqueName('s')): Promise<string> => {
    await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: name }).expect(201);
    return name;
  };
  const createGroup = async (stream: string, name = uniqueName('g')): Promise<string> => {
    await t.http
      .post(`/v1/scopes/${scope}/readergroups`)
      .send({ readerGroupName: name, streams: [stream] })
      .expect(201);
    return name;
  };
  const auditRows = async (resource: string): Promise<number> =>
    (
      await t.sql<{ n: number }>(
        'SELECT count(*)::int AS n FROM audit_events WHERE resource = $1',
        [resource],
      )
    )[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    scope = await createScope(t.http, 'cond');
  });
  afterAll(() => t.close());

  describe('entity tags', () => {
    it('answers a strong ETag on GET, on the 201 of each create and the 200 of PUT and seal', async () => {
      const name = uniqueName('sc');
      const scopeCreated = await t.http.post('/v1/scopes').send({ scopeName: name }).expect(201);
      expect(scopeCreated.body).toEqual({ scopeName: name });
      expect(versionOf(scopeCreated.headers.etag)).toBe(1);
      expect(await etagOf(`/v1/scopes/${name}`)).toBe(scopeCreated.headers.etag);

      const created = await t.http
        .post(`/v1/scopes/${scope}/streams`)
        .send({ streamName: 'tagged' })
        .expect(201);
      expect(versionOf(created.headers.etag)).toBe(1);
      const read = await t.http.get(streamPath('tagged')).expect(200);
      expect(read.headers.etag).toBe(created.headers.etag);
      expect(read.body).toEqual(created.body);

      const updated = await t.http.put(streamPath('tagged')).send(fixed(3)).expect(200);
      expect(versionOf(updated.headers.etag)).toBe(2);
      expect(await etagOf(streamPath('tagged'))).toBe(updated.headers.etag);

      const sealed = await t.http
        .put(`${streamPath('tagged')}/state`)
        .send(SEALED)
        .expect(200);
      expect(sealed.body).toEqual(SEALED);
      expect(versionOf(sealed.headers.etag)).toBe(3);
      expect(await etagOf(streamPath('tagged'))).toBe(sealed.headers.etag);

      const group = await t.http
        .post(`/v1/scopes/${scope}/readergroups`)
        .send({ readerGroupName: 'tagged', streams: ['tagged'] })
        .expect(201);
      expect(versionOf(group.headers.etag)).toBe(1);
      expect(await etagOf(groupPath('tagged'))).toBe(group.headers.etag);
    });

    it('adds no ETag to lists, scaling events or 204s', async () => {
      const stream = await createStream();
      for (const path of [
        '/v1/scopes',
        `/v1/scopes/${scope}/streams`,
        `/v1/scopes/${scope}/readergroups`,
        `${streamPath(stream)}/scaling-events?from=0&to=${Date.now() + 1000}`,
      ]) {
        expect([path, (await t.http.get(path).expect(200)).headers.etag]).toEqual([
          path,
          undefined,
        ]);
      }
      const group = await createGroup(stream);
      const online = await t.http.put(`${groupPath(group)}/readers/r1`).expect(204);
      expect(online.headers.etag).toBeUndefined();
    });

    it('never repeats a tag of a stream deleted and created again under its name', async () => {
      const stream = await createStream();
      const first = await etagOf(streamPath(stream));
      await t.http
        .put(`${streamPath(stream)}/state`)
        .send(SEALED)
        .expect(200);
      await t.http.delete(streamPath(stream)).expect(204);
      const again = await t.http
        .post(`/v1/scopes/${scope}/streams`)
        .send({ streamName: stream })
        .expect(201);
      expect(versionOf(again.headers.etag)).toBe(1);
      expect(again.headers.etag).not.toBe(first);
      await t.http.put(streamPath(stream)).set('If-Match', first).send(fixed(2)).expect(412);
    });
  });

  describe('versions', () => {
    const version = async (table: string, where: string, params: string[]): Promise<number> =>
      Number(
        (await t.sql<{ version: string }>(`SELECT version FROM ${table} WHERE ${where}`, params))[0]
          .version,
      );

    it('bumps a stream on update and seal, once each, in the row the change writes', async () => {
      const stream = await createStream();
      const of = () => version('streams', 'scope_name = $1 AND name = $2', [scope, stream]);
      expect(await of()).toBe(1);
      await t.http.put(streamPath(stream)).send(fixed(2)).expect(200);
      expect(await of()).toBe(2);
      // A rescale is part of the update that asked for it: still one version.
      await t.http.put(streamPath(stream)).send(fixed(5)).expect(200);
      expect(await of()).toBe(3);
      await t.http
        .put(`${streamPath(stream)}/state`)
        .send(SEALED)
        .expect(200);
      expect(await of()).toBe(4);
      // Sealing a sealed stream changes nothing, so nothing is bumped.
      const again = await t.http
        .put(`${streamPath(stream)}/state`)
        .send(SEALED)
        .expect(200);
      expect(await of()).toBe(4);
      expect(versionOf(again.headers.etag)).toBe(4);
      // A refused change bumps nothing.
      await t.http.put(streamPath(stream)).send(fixed(1)).expect(412);
      expect(await of()).toBe(4);
    });

    it('bumps a reader group when a reader goes online or offline, not when nothing changes', async () => {
      const group = await createGroup(await createStream());
      const of = () => version('reader_groups', 'scope_name = $1 AND name = $2', [scope, group]);
      expect(await of()).toBe(1);
      await t.http.put(`${groupPath(group)}/readers/r1`).expect(204);
      expect(await of()).toBe(2);
      await t.http.put(`${groupPath(group)}/readers/r1`).expect(204);
      expect(await of()).toBe(2);
      await t.http.put(`${groupPath(group)}/readers/r2`).expect(204);
      expect(await of()).toBe(3);
      await t.http.delete(`${groupPath(group)}/readers/r1`).expect(204);
      expect(await of()).toBe(4);
      await t.http.delete(`${groupPath(group)}/readers/r1`).expect(404);
      expect(await of()).toBe(4);
      expect(versionOf(await etagOf(groupPath(group)))).toBe(4);
    });

    it('bumps the groups that read a stream when its deletion drops it from their lists', async () => {
      const [kept, dropped] = [await createStream(), await createStream()];
      const group = await t.http
        .post(`/v1/scopes/${scope}/readergroups`)
        .send({ readerGroupName: uniqueName('g'), streams: [kept, dropped] })
        .expect(201);
      const path = groupPath(group.body.readerGroupName);
      await t.http
        .put(`${streamPath(dropped)}/state`)
        .send(SEALED)
        .expect(200);
      expect(await etagOf(path)).toBe(group.headers.etag);
      await t.http.delete(streamPath(dropped)).expect(204);
      const after = await t.http.get(path).set('If-None-Match', group.headers.etag).expect(200);
      expect(after.body.streamList).toEqual([`${scope}/${kept}`]);
      expect(versionOf(after.headers.etag)).toBe(2);
    });

    it('never bumps a scope: creating and deleting what is in it changes the scope nothing', async () => {
      const own = await createScope(t.http, 'quiet');
      const tag = await etagOf(`/v1/scopes/${own}`);
      await t.http.post(`/v1/scopes/${own}/streams`).send({ streamName: 'a' }).expect(201);
      await t.http
        .post(`/v1/scopes/${own}/readergroups`)
        .send({ readerGroupName: 'g', streams: ['a'] })
        .expect(201);
      await t.http.delete(`/v1/scopes/${own}/readergroups/g`).expect(204);
      expect(await etagOf(`/v1/scopes/${own}`)).toBe(tag);
      expect(await version('scopes', 'name = $1', [own])).toBe(1);
    });
  });

  describe('If-None-Match on reads', () => {
    it.each(['scope', 'stream', 'reader group'])(
      'answers 304 with the ETag and no body for the %s when a tag matches',
      async (kind) => {
        const stream = await createStream();
        const path =
          kind === 'scope'
            ? `/v1/scopes/${scope}`
            : kind === 'stream'
              ? streamPath(stream)
              : groupPath(await createGroup(stream));
        const tag = await etagOf(path);
        for (const condition of [tag, '*', weak(tag), `"nope", ${tag}`, `W/"nope",${weak(tag)}`]) {
          const res = await t.http.get(path).set('If-None-Match', condition);
          expect([condition, res.status, res.headers.etag, res.text]).toEqual([
            condition,
            304,
            tag,
            '',
          ]);
          expect(res.headers['content-type']).toBeUndefined();
        }
        for (const condition of ['"nope"', otherVersion(tag, 99), `W/"x", "y"`]) {
          const res = await t.http.get(path).set('If-None-Match', condition);
          expect([condition, res.status, res.headers.etag]).toEqual([condition, 200, tag]);
          expect(res.body).toEqual((await t.http.get(path)).body);
        }
      },
    );

    it('answers 200 again once the state changed', async () => {
      const stream = await createStream();
      const tag = await etagOf(streamPath(stream));
      await t.http.put(streamPath(stream)).send(fixed(2)).expect(200);
      const res = await t.http.get(streamPath(stream)).set('If-None-Match', tag).expect(200);
      expect(res.body.scalingPolicy).toEqual({ type: 'FIXED_NUM_SEGMENTS', minSegments: 2 });
    });

    it('answers 404 for a missing resource, whatever the condition', async () => {
      await t.http.get(streamPath('missing')).set('If-None-Match', '*').expect(404);
      await t.http.get('/v1/scopes/missing-scope').set('If-None-Match', '"1.1"').expect(404);
    });
  });

  describe('If-Match on changes', () => {
    /** Each change If-Match guards, on a fresh resource: where its tag is read, and the call. */
    interface Guarded {
      name: string;
      /** Prepares the resource; returns the path whose GET answers the guarding tag. */
      prepare(): Promise<{ tagPath: string; resource: string }>;
      change(tagPath: string, condition?: string): Promise<{ status: number }>;
      /** What a GET of `tagPath` shows when the change did not happen. */
      unchanged(tagPath: string): Promise<void>;
    }
    const withCondition = <T extends { set(name: string, value: string): T }>(
      call: T,
      condition?: string,
    ): T => (condition === undefined ? call : call.set('If-Match', condition));

    const guarded: Guarded[] = [
      {
        name: 'PUT stream',
        prepare: async () => {
          const stream = await createStream();
          return { tagPath: streamPath(stream), resource: `prn::/scope:${scope}/stream:${stream}` };
        },
        change: (path, condition) => withCondition(t.http.put(path), condition).send(fixed(4)),
        unchanged: async (path) => {
          const { body } = await t.http.get(path).expect(200);
          expect(body.scalingPolicy).toEqual({ type: 'FIXED_NUM_SEGMENTS', minSegments: 1 });
        },
      },
      {
        name: 'PUT stream state',
        prepare: async () => {
          const stream = await createStream();
          return { tagPath: streamPath(stream), resource: `prn::/scope:${scope}/stream:${stream}` };
        },
        change: (path, condition) =>
          withCondition(t.http.put(`${path}/state`), condition).send(SEALED),
        unchanged: async (path) => {
          const stream = path.slice(path.lastIndexOf('/') + 1);
          const [row] = await t.sql<{ state: string }>(
            'SELECT state FROM streams WHERE scope_name = $1 AND name = $2',
            [scope, stream],
          );
          expect(row.state).toBe('ACTIVE');
        },
      },
      {
        name: 'DELETE stream',
        prepare: async () => {
          const stream = await createStream();
          await t.http
            .put(`${streamPath(stream)}/state`)
            .send(SEALED)
            .expect(200);
          return { tagPath: streamPath(stream), resource: `prn::/scope:${scope}/stream:${stream}` };
        },
        change: (path, condition) => withCondition(t.http.delete(path), condition),
        unchanged: async (path) => void (await t.http.get(path).expect(200)),
      },
      {
        name: 'DELETE scope',
        prepare: async () => {
          const own = await createScope(t.http, 'gone');
          return { tagPath: `/v1/scopes/${own}`, resource: `prn::/scope:${own}` };
        },
        change: (path, condition) => withCondition(t.http.delete(path), condition),
        unchanged: async (path) => void (await t.http.get(path).expect(200)),
      },
      {
        name: 'DELETE reader group',
        prepare: async () => {
          const group = await createGroup(await createStream());
          return {
            tagPath: groupPath(group),
            resource: `prn::/scope:${scope}/reader-group:${group}`,
          };
        },
        change: (path, condition) => withCondition(t.http.delete(path), condition),
        unchanged: async (path) => void (await t.http.get(path).expect(200)),
      },
      {
        name: 'reader online',
        prepare: async () => {
          const group = await createGroup(await createStream());
          return {
            tagPath: groupPath(group),
            resource: `prn::/scope:${scope}/reader-group:${group}`,
          };
        },
        change: (path, condition) => withCondition(t.http.put(`${path}/readers/r1`), condition),
        unchanged: async (path) =>
          expect((await t.http.get(path).expect(200)).body.onlineReaderIds).toEqual([]),
      },
      {
        name: 'reader offline',
        prepare: async () => {
          const group = await createGroup(await createStream());
          await t.http.put(`${groupPath(group)}/readers/r1`).expect(204);
          return {
            tagPath: groupPath(group),
            resource: `prn::/scope:${scope}/reader-group:${group}`,
          };
        },
        change: (path, condition) => withCondition(t.http.delete(`${path}/readers/r1`), condition),
        unchanged: async (path) =>
          expect((await t.http.get(path).expect(200)).body.onlineReaderIds).toEqual(['r1']),
      },
    ];
    const success = (name: string) => (name.startsWith('PUT stream') ? 200 : 204);

    it.each(guarded.map((g) => [g.name, g] as const))(
      '%s: 412 for a stale, a weak or an unknown tag, changing nothing and auditing nothing',
      async (_, g) => {
        const { tagPath, resource } = await g.prepare();
        const tag = await etagOf(tagPath);
        const audited = await auditRows(resource);
        const refusals = [
          otherVersion(tag, versionOf(tag) + 1),
          weak(tag),
          `W/"x", ${weak(tag)}`,
          '"unknown"',
        ];
        for (const condition of refusals) {
          const res = await g.change(tagPath, condition);
          expect([condition, res.status]).toEqual([condition, 412]);
        }
        await g.unchanged(tagPath);
        expect(await etagOf(tagPath)).toBe(tag);
        expect(await auditRows(resource)).toBe(audited);
      },
    );

    it.each(guarded.map((g) => [g.name, g] as const))(
      '%s: proceeds with the current tag, alone or in a list, or *',
      async (_, g) => {
        for (const build of [
          (tag: string) => tag,
          (tag: string) => `"stale", ${weak(tag)}, ${tag}`,
          () => '*',
        ]) {
          const { tagPath } = await g.prepare();
          const condition = build(await etagOf(tagPath));
          const res = await g.change(tagPath, condition);
          expect([g.name, condition, res.status]).toEqual([g.name, condition, success(g.name)]);
        }
      },
    );

    it.each(guarded.map((g) => [g.name, g] as const))(
      '%s: 404 for a missing resource before any precondition',
      async (_, g) => {
        const path = g.name.includes('reader')
          ? groupPath('nope')
          : g.name === 'DELETE scope'
            ? '/v1/scopes/no-such-scope'
            : streamPath('nope');
        for (const condition of ['"1.1"', 'W/"1.1"', '*']) {
          const res = await g.change(path, condition);
          expect([g.name, condition, res.status]).toEqual([g.name, condition, 404]);
        }
      },
    );

    it('answers the 412 with an empty body, or a problem document when asked for one', async () => {
      const stream = await createStream();
      const bare = await t.http.put(streamPath(stream)).set('If-Match', '"0.0"').send(fixed(2));
      expect([bare.status, bare.text]).toEqual([412, '']);
      const problem = await t.http
        .put(streamPath(stream))
        .set(PROBLEM_HEADERS)
        .set('If-Match', '"0.0"')
        .send(fixed(2))
        .expect(412);
      expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem.body).toMatchObject({
        status: 412,
        code: 'PRECONDITION_FAILED',
        type: 'urn:tributary:problem:precondition-failed',
        instance: streamPath(stream),
      });
    });

    it("checks If-Match before the stream's own preconditions", async () => {
      const stream = await createStream();
      await t.http
        .put(`${streamPath(stream)}/state`)
        .send(SEALED)
        .expect(200);
      const stale = await t.http
        .put(streamPath(stream))
        .set(PROBLEM_HEADERS)
        .set('If-Match', '"0.0"')
        .send(fixed(2))
        .expect(412);
      expect(stale.body.code).toBe('PRECONDITION_FAILED');
      const current = await t.http
        .put(streamPath(stream))
        .set(PROBLEM_HEADERS)
        .set('If-Match', await etagOf(streamPath(stream)))
        .send(fixed(2))
        .expect(412);
      expect(current.body.code).toBe('STREAM_SEALED');
    });

    it('lets only the first of two writers holding the same tag change the stream', async () => {
      const stream = await createStream();
      const tag = await etagOf(streamPath(stream));
      const first = await t.http.put(streamPath(stream)).set('If-Match', tag).send(fixed(2));
      const second = await t.http.put(streamPath(stream)).set('If-Match', tag).send(fixed(3));
      expect([first.status, second.status]).toEqual([200, 412]);
      expect(first.headers.etag).toBe(otherVersion(tag, 2));
      const { body } = await t.http.get(streamPath(stream)).expect(200);
      expect(body.scalingPolicy.minSegments).toBe(2);
    });
  });

  describe('malformed conditions', () => {
    const MALFORMED = ['abc', '"unterminated', 'W/abc', '"a" "b"', ',', '"a"b', '**'];

    it.each(MALFORMED)(
      'refuses If-Match %j with 400 naming the header, changing nothing',
      async (value) => {
        const stream = await createStream();
        const tag = await etagOf(streamPath(stream));
        const res = await t.http
          .put(streamPath(stream))
          .set('If-Match', value)
          .send(fixed(2))
          .expect(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.code).toBe('INVALID_REQUEST');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['If-Match']);
        expect(await etagOf(streamPath(stream))).toBe(tag);
      },
    );

    it.each(MALFORMED)('refuses If-None-Match %j with 400 naming the header', async (value) => {
      const res = await t.http.get(`/v1/scopes/${scope}`).set('If-None-Match', value).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['If-None-Match']);
    });
  });
});

/** Two service processes on one database: the row lock, not either process, picks the winner. */
describe('Racing If-Match writers on two instances (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let services: ServiceProcess[];
  let sql: Client;

  const call = async (
    service: ServiceProcess,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ) => {
    const res = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await res.text();
    return { status: res.status, etag: res.headers.get('etag') };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    services = await ServiceProcess.instances(database.url);
    sql = new Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await Promise.all((services ?? []).map((service) => service.stop()));
    await database?.drop();
  });

  it('gives exactly one 200 and one 412 per round, and the winner is what is stored', async () => {
    const [a, b] = services;
    expect((await call(a, 'POST', '/v1/scopes', {}, { scopeName: 'race' })).status).toBe(201);
    for (let round = 0; round < 10; round++) {
      const stream = `s${round}`;
      const created = await call(a, 'POST', '/v1/scopes/race/streams', {}, { streamName: stream });
      const path = `/v1/scopes/race/streams/${stream}`;
      const ifMatch = { 'If-Match': created.etag! };
      const answers = await Promise.all([
        call(a, 'PUT', path, ifMatch, fixed(2)),
        call(b, 'PUT', path, ifMatch, fixed(3)),
      ]);
      expect(answers.map((r) => r.status).sort((x, y) => x - y)).toEqual([200, 412]);
      const winner = answers.findIndex((r) => r.status === 200);
      const { rows } = await sql.query<{ min_segments: number; version: string }>(
        `SELECT min_segments, version FROM streams WHERE scope_name = 'race' AND name = $1`,
        [stream],
      );
      expect(rows).toEqual([{ min_segments: winner === 0 ? 2 : 3, version: '2' }]);
      const audited = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_events WHERE resource = $1 AND operation = 'updateStream'`,
        [`prn::/scope:race/stream:${stream}`],
      );
      expect(audited.rows[0].n).toBe(1);

      // Sealing races the same way: one seals, the other holds a tag that no longer matches.
      const tag = { 'If-Match': answers[winner].etag! };
      const seals = await Promise.all([
        call(a, 'PUT', `${path}/state`, tag, SEALED),
        call(b, 'PUT', `${path}/state`, tag, SEALED),
      ]);
      expect(seals.map((r) => r.status).sort((x, y) => x - y)).toEqual([200, 412]);
    }
  });
});
