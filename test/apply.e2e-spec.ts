import { stringify } from 'yaml';
import { basic, writeAccounts } from './support/accounts';
import { brokenInvariants } from './support/invariants';
import { PROBLEM_HEADERS, uniqueName } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** docs/extensions.md section 5: `POST /v1/apply`, against the real service and database. */
describe('Declarative apply (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(async () => {
    expect(await brokenInvariants((text) => t.sql(text))).toEqual([]);
  });
  afterAll(() => t.close());

  const auditCount = async (): Promise<number> =>
    (await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_events'))[0].n;
  const auditOf = (scope: string) =>
    t.sql<{ operation: string; resource: string }>(
      `SELECT operation, resource FROM audit_events
        WHERE resource LIKE $1 OR operation = 'applyDocument' ORDER BY id`,
      [`prn::/scope:${scope}%`],
    );
  const streamNames = async (scope: string): Promise<string[]> =>
    (
      await t.sql<{ name: string }>(
        'SELECT name FROM streams WHERE scope_name = $1 ORDER BY name',
        [scope],
      )
    ).map((row) => row.name);

  const documentFor = (scope: string, extra: object = {}) => ({
    scopes: [
      {
        scopeName: scope,
        streams: [
          {
            streamName: 'orders',
            scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
            retentionPolicy: { type: 'LIMITED_DAYS', value: 7 },
            streamTags: ['billing'],
          },
          { streamName: 'refunds' },
        ],
        readerGroups: [{ readerGroupName: 'billing', streams: ['orders', `${scope}/refunds`] }],
      },
    ],
    ...extra,
  });

  const apply = (
    document: unknown,
    { dryRun = false, ifMatch = undefined as string | undefined } = {},
  ) => {
    const call = t.http.post(`/v1/apply${dryRun ? '?dryRun=true' : ''}`).set(PROBLEM_HEADERS);
    if (ifMatch !== undefined) call.set('If-Match', ifMatch);
    return call.send(document as object);
  };

  it('plans without changing anything, then applies the same plan in one go', async () => {
    const scope = uniqueName('apply');
    const before = await auditCount();

    const plan = await apply(documentFor(scope), { dryRun: true }).expect(200);
    expect(plan.body).toEqual({
      dryRun: true,
      applied: false,
      changes: [
        { action: 'create', kind: 'scope', resource: `prn::/scope:${scope}` },
        { action: 'create', kind: 'stream', resource: `prn::/scope:${scope}/stream:orders` },
        { action: 'create', kind: 'stream', resource: `prn::/scope:${scope}/stream:refunds` },
        {
          action: 'create',
          kind: 'readerGroup',
          resource: `prn::/scope:${scope}/reader-group:billing`,
        },
      ],
      summary: { create: 4, update: 0, delete: 0, unchanged: 0 },
      planVersion: expect.stringMatching(/^"[A-Za-z0-9_-]+"$/),
    });
    await t.http.get(`/v1/scopes/${scope}`).expect(404);
    expect(await auditCount()).toBe(before);

    const done = await apply(documentFor(scope), { ifMatch: plan.body.planVersion }).expect(200);
    expect(done.body).toMatchObject({ dryRun: false, applied: true, summary: plan.body.summary });
    expect(done.body.changes).toEqual(plan.body.changes);

    const orders = await t.http.get(`/v1/scopes/${scope}/streams/orders`).expect(200);
    expect(orders.body).toMatchObject({
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
      retentionPolicy: { type: 'LIMITED_DAYS', value: 7 },
      tags: ['billing'],
    });
    const group = await t.http.get(`/v1/scopes/${scope}/readergroups/billing`).expect(200);
    expect(group.body.streamList).toEqual([`${scope}/orders`, `${scope}/refunds`]);
    // Each change is audited as its single request would be, plus one row for the apply.
    expect((await auditOf(scope)).slice(-5).map((row) => row.operation)).toEqual([
      'createScope',
      'createStream',
      'createStream',
      'createReaderGroup',
      'applyDocument',
    ]);
    expect(await auditCount()).toBe(before + 5);

    // Applying it again finds nothing to do.
    const again = await apply(documentFor(scope)).expect(200);
    expect(again.body.summary).toEqual({ create: 0, update: 0, delete: 0, unchanged: 4 });
    expect(again.body.changes.filter((c: { action: string }) => c.action !== 'unchanged')).toEqual(
      [],
    );
  });

  it('takes YAML as well as JSON, and both plan the same', async () => {
    const scope = uniqueName('yaml');
    const json = await apply(documentFor(scope), { dryRun: true }).expect(200);
    const yaml = await t.http
      .post('/v1/apply?dryRun=true')
      .set('Content-Type', 'application/yaml')
      .send(stringify(documentFor(scope)))
      .expect(200);
    expect(yaml.body).toEqual(json.body);
  });

  it('updates a listed stream with PUT semantics and shows each changed field', async () => {
    const scope = uniqueName('update');
    await apply(documentFor(scope)).expect(200);
    const changed = documentFor(scope);
    changed.scopes[0].streams[0] = {
      streamName: 'orders',
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 },
    } as (typeof changed.scopes)[0]['streams'][0];

    const plan = await apply(changed, { dryRun: true }).expect(200);
    const update = plan.body.changes.find((c: { action: string }) => c.action === 'update');
    expect(update).toEqual({
      action: 'update',
      kind: 'stream',
      resource: `prn::/scope:${scope}/stream:orders`,
      diff: expect.arrayContaining([
        { path: 'scalingPolicy.minSegments', before: 2, after: 4 },
        { path: 'tags', before: ['billing'], after: [] },
      ]),
    });
    expect(update.diff.map((d: { path: string }) => d.path)).toContain('retentionPolicy');

    await apply(changed, { ifMatch: plan.body.planVersion }).expect(200);
    const orders = await t.http.get(`/v1/scopes/${scope}/streams/orders`).expect(200);
    expect(orders.body.scalingPolicy.minSegments).toBe(4);
    expect(orders.body.retentionPolicy).toBeUndefined();
    // The rescale happened: four active segments now.
    const segments = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM stream_segments WHERE scope_name = $1 AND stream_name = 'orders'
          AND sealed_in IS NULL`,
      [scope],
    );
    expect(segments[0].n).toBe(4);
  });

  it('refuses a stale plan with 412 and changes nothing', async () => {
    const scope = uniqueName('stale');
    await apply(documentFor(scope)).expect(200);
    const changed = documentFor(scope, {});
    changed.scopes[0].streams[1] = { streamName: 'refunds', streamTags: ['late'] } as never;
    const plan = await apply(changed, { dryRun: true }).expect(200);

    // Someone edits a stream the plan read.
    await t.http
      .put(`/v1/scopes/${scope}/streams/orders`)
      .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 3 } })
      .expect(200);
    const before = await auditCount();
    const stale = await apply(changed, { ifMatch: plan.body.planVersion }).expect(412);
    expect(stale.body).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    expect(await auditCount()).toBe(before);
    const refunds = await t.http.get(`/v1/scopes/${scope}/streams/refunds`).expect(200);
    expect(refunds.body.tags).toEqual([]);

    // Weak tags never match, a malformed header is refused as elsewhere; `*` always matches.
    const weak = `W/${plan.body.planVersion as string}`;
    await apply(changed, { ifMatch: weak }).expect(412);
    const malformed = await apply(changed, { ifMatch: 'not-a-tag' }).expect(400);
    expect(malformed.body.errors).toEqual([
      { field: 'If-Match', message: 'If-Match must be * or a list of entity tags' },
    ]);
    const fresh = await apply(changed, { dryRun: true }).expect(200);
    expect(fresh.body.planVersion).not.toBe(plan.body.planVersion);
    await apply(changed, { ifMatch: `"other", ${fresh.body.planVersion as string}` }).expect(200);
    const applied = await t.http.get(`/v1/scopes/${scope}/streams/refunds`).expect(200);
    expect(applied.body.tags).toEqual(['late']);
    await apply(changed, { ifMatch: '*' }).expect(200);
  });

  it('applies all or nothing: a document whose last change fails leaves nothing changed', async () => {
    const scope = uniqueName('atomic');
    const before = await auditCount();
    const document = documentFor(scope);
    // The group's second stream lives in a scope that does not exist: its create fails last.
    document.scopes[0].readerGroups[0].streams = ['orders', 'nowhere/missing'];
    const refused = await apply(document).expect(409);
    expect(refused.body).toMatchObject({
      status: 409,
      code: 'APPLY_CONFLICT',
      conflicts: [
        {
          resource: `prn::/scope:${scope}/reader-group:billing`,
          message: expect.stringContaining('nowhere/missing'),
        },
      ],
    });
    await t.http.get(`/v1/scopes/${scope}`).expect(404);
    expect(await streamNames(scope)).toEqual([]);
    expect(await auditCount()).toBe(before);
  });

  it('refuses a group that would read a missing stream with 409, dry run or not', async () => {
    const scope = uniqueName('reads');
    const before = await auditCount();
    const document = documentFor(scope);
    // `orders` and `refunds` are created by the document itself; `nowhere/missing` is nowhere.
    document.scopes[0].readerGroups.push({
      readerGroupName: 'audit',
      streams: ['refunds', 'nowhere/missing', 'gone'],
    });
    for (const dryRun of [true, false]) {
      const refused = await apply(document, { dryRun });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 409,
        body: {
          type: 'urn:tributary:problem:apply-conflict',
          title: 'Conflict',
          status: 409,
          detail: `Nothing was applied: prn::/scope:${scope}/reader-group:audit: Stream nowhere/missing does not exist`,
          code: 'APPLY_CONFLICT',
          instance: dryRun ? '/v1/apply?dryRun=true' : '/v1/apply',
          requestId: expect.any(String),
          conflicts: [
            {
              resource: `prn::/scope:${scope}/reader-group:audit`,
              message: 'Stream nowhere/missing does not exist',
            },
          ],
        },
      });
    }
    await t.http.get(`/v1/scopes/${scope}`).expect(404);
    expect(await auditCount()).toBe(before);
    // Streams that exist already, in a scope the document does not list, are read as they are.
    const other = uniqueName('other');
    await apply({ scopes: [{ scopeName: other, streams: [{ streamName: 'gone' }] }] }).expect(200);
    document.scopes[0].readerGroups[1].streams = ['refunds', `${other}/gone`];
    await apply(document, { dryRun: true }).expect(200);
  });

  it('refuses the whole document with 409 naming every sealed stream and changed group', async () => {
    const scope = uniqueName('conflict');
    await apply(documentFor(scope)).expect(200);
    await t.http
      .put(`/v1/scopes/${scope}/streams/refunds/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    const document = documentFor(scope);
    document.scopes[0].streams[1] = { streamName: 'refunds', streamTags: ['x'] } as never;
    document.scopes[0].streams.push({ streamName: 'fresh' });
    document.scopes[0].readerGroups[0].streams = ['orders'];
    const before = await auditCount();

    for (const dryRun of [true, false]) {
      const refused = await apply(document, { dryRun }).expect(409);
      expect(refused.body.code).toBe('APPLY_CONFLICT');
      expect(refused.body.conflicts.map((c: { resource: string }) => c.resource).sort()).toEqual([
        `prn::/scope:${scope}/reader-group:billing`,
        `prn::/scope:${scope}/stream:refunds`,
      ]);
      expect(refused.body.detail).toContain(`prn::/scope:${scope}/stream:refunds`);
    }
    expect(await streamNames(scope)).not.toContain('fresh');
    expect(await auditCount()).toBe(before);
    // As for every 409 of the contract, no body unless a problem document is asked for.
    const bare = await t.http.post('/v1/apply').send(document);
    expect(bare.status).toBe(409);
    expect(bare.text).toBe('');
  });

  it('prunes only inside listed scopes: seals and deletes unlisted user streams and groups', async () => {
    const listed = uniqueName('prune');
    const other = uniqueName('untouched');
    await apply(documentFor(listed)).expect(200);
    await apply(documentFor(other)).expect(200);
    await t.http.post(`/v1/scopes/${listed}/streams`).send({ streamName: 'extra' }).expect(201);
    const document = {
      scopes: [{ scopeName: listed, streams: [{ streamName: 'orders' }] }],
      prune: true,
    };

    const plan = await apply(document, { dryRun: true }).expect(200);
    expect(
      plan.body.changes
        .filter((c: { action: string }) => c.action === 'delete')
        .map((c: { resource: string }) => c.resource),
    ).toEqual([
      `prn::/scope:${listed}/reader-group:billing`,
      `prn::/scope:${listed}/stream:extra`,
      `prn::/scope:${listed}/stream:refunds`,
    ]);
    await apply(document).expect(200);

    expect(await streamNames(listed)).toEqual(['_MARKorders', 'orders']);
    await t.http.get(`/v1/scopes/${listed}/readergroups/billing`).expect(404);
    expect(await streamNames(other)).toEqual([
      '_MARK_RGbilling',
      '_MARKorders',
      '_MARKrefunds',
      '_RGbilling',
      'orders',
      'refunds',
    ]);
    const ops = (await auditOf(listed)).slice(-7).map((row) => `${row.operation} ${row.resource}`);
    expect(ops).toEqual([
      `updateStream prn::/scope:${listed}/stream:orders`,
      `deleteReaderGroup prn::/scope:${listed}/reader-group:billing`,
      `updateStreamState prn::/scope:${listed}/stream:extra`,
      `deleteStream prn::/scope:${listed}/stream:extra`,
      `updateStreamState prn::/scope:${listed}/stream:refunds`,
      `deleteStream prn::/scope:${listed}/stream:refunds`,
      'applyDocument prn::/',
    ]);
  });

  it.each([
    [
      'a wrong minimum',
      {
        scopes: [
          {
            scopeName: 's',
            streams: [
              { streamName: 'a', scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 0 } },
            ],
          },
        ],
      },
      ['scopes[0].streams[0].scalingPolicy.minSegments'],
    ],
    [
      'an unknown policy type and a bad scope name',
      {
        scopes: [
          { scopeName: 'bad name', streams: [] },
          { scopeName: 'ok', streams: [{ streamName: 'a', scalingPolicy: { type: 'SOMETIMES' } }] },
        ],
      },
      ['scopes[0].scopeName', 'scopes[1].streams[0].scalingPolicy.type'],
    ],
    [
      'duplicate names',
      {
        scopes: [
          { scopeName: 'd', streams: [{ streamName: 'a' }, { streamName: 'a' }] },
          { scopeName: 'd' },
        ],
      },
      ['scopes[1].scopeName', 'scopes[0].streams[1].streamName'],
    ],
    ['no scopes', { prune: true }, ['scopes']],
    ['a wrong prune', { scopes: [], prune: 'yes' }, ['prune']],
  ])('refuses a document with %s, naming every invalid path', async (_name, document, paths) => {
    const before = await auditCount();
    const refused = await apply(document).expect(400);
    expect(refused.body.code).toBe('INVALID_REQUEST');
    const fields = refused.body.errors.map((e: { field: string }) => e.field);
    for (const path of paths) expect(fields).toContain(path);
    expect(await auditCount()).toBe(before);
  });

  it('refuses more than 10,000 resources, bad bodies and a bad dryRun', async () => {
    const streams = Array.from({ length: 10_000 }, (_, i) => ({ streamName: `s${i}` }));
    const tooMany = await apply({ scopes: [{ scopeName: 'big', streams }] }).expect(400);
    expect(tooMany.body.errors).toEqual([
      {
        field: 'scopes',
        message: 'must list at most 10000 resources (scopes, streams and reader groups) in all',
      },
    ]);

    const badJson = await t.http
      .post('/v1/apply')
      .set('Content-Type', 'application/json')
      .send('{"scopes": [')
      .expect(400);
    expect(badJson.body.code).toBe('MALFORMED_BODY');
    const badYaml = await t.http
      .post('/v1/apply')
      .set('Content-Type', 'application/yaml')
      .send('scopes: [unclosed')
      .expect(400);
    expect(badYaml.body).toMatchObject({
      code: 'MALFORMED_BODY',
      detail: 'The request body is not valid YAML',
    });
    const yamlList = await t.http
      .post('/v1/apply')
      .set('Content-Type', 'application/yaml')
      .send('- scopeName: a')
      .expect(400);
    expect(yamlList.body.detail).toBe('The request body must be a YAML mapping');
    const aliases = await t.http
      .post('/v1/apply')
      .set('Content-Type', 'application/yaml')
      .send(
        'a: &a [x, x, x, x, x, x, x, x, x, x]\n' +
          Array.from({ length: 120 }, (_, i) => `k${i}: [*a, *a]`).join('\n'),
      )
      .expect(400);
    expect(aliases.body.code).toBe('MALFORMED_BODY');
    const text = await t.http
      .post('/v1/apply')
      .set('Content-Type', 'text/plain')
      .send('scopes: []')
      .expect(415);
    expect(text.body.detail).toBe('The request body must be application/json or application/yaml');
    const dryRun = await t.http.post('/v1/apply?dryRun=maybe').send({ scopes: [] }).expect(400);
    expect(dryRun.body.errors).toEqual([
      { field: 'dryRun', message: 'dryRun must be true or false' },
    ]);
    // A mistyped dryRun is refused, not dropped: dropped, the apply would change what it plans.
    const mistyped = await t.http
      .post('/v1/apply?dryrun=true&dryRun=true&prune=true')
      .send({ scopes: [{ scopeName: uniqueName('typo') }] })
      .expect(400);
    expect(mistyped.body.errors).toEqual([
      { field: 'dryrun', message: 'dryrun is not a parameter of this operation' },
      { field: 'prune', message: 'prune is not a parameter of this operation' },
    ]);
    // The rest of the API keeps its own limit and JSON only.
    await t.http
      .post('/v1/scopes')
      .set('Content-Type', 'application/yaml')
      .send('scopeName: a')
      .expect(415);
  });

  it('answers 400 naming each list element that is not an object, dry run or not, never 500', async () => {
    const scope = uniqueName('elements');
    const before = await auditCount();
    const document = {
      scopes: [
        null,
        [],
        {
          scopeName: scope,
          streams: [[], { streamName: 'orders' }],
          readerGroups: [null, [{ readerGroupName: 'g', streams: ['orders'] }]],
        },
      ],
    };
    for (const dryRun of [true, false]) {
      const refused = await apply(document, { dryRun });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: {
          type: 'urn:tributary:problem:invalid-request',
          title: 'Bad request',
          status: 400,
          detail: expect.any(String),
          code: 'INVALID_REQUEST',
          instance: dryRun ? '/v1/apply?dryRun=true' : '/v1/apply',
          requestId: expect.any(String),
          errors: expect.arrayContaining([
            {
              field: 'scopes[0]',
              message: 'each value in nested property scopes must be either object or array',
            },
            { field: 'scopes[1]', message: 'must be an object, not an array' },
            { field: 'scopes[2].streams[0]', message: 'must be an object, not an array' },
            {
              field: 'scopes[2].readerGroups[0]',
              message: 'each value in nested property readerGroups must be either object or array',
            },
            { field: 'scopes[2].readerGroups[1]', message: 'must be an object, not an array' },
          ]),
        },
      });
    }
    await t.http.get(`/v1/scopes/${scope}`).expect(404);
    await t.http.get('/v1/scopes/undefined').expect(404);
    expect(await auditCount()).toBe(before);
  });
});

describe('Declarative apply: its own body limit (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ APPLY_MAX_BODY_BYTES: '2000', MAX_BODY_BYTES: '100000' });
  });
  afterAll(() => t.close());

  it('answers 413 over APPLY_MAX_BODY_BYTES, whatever the API limit', async () => {
    const streams = Array.from({ length: 100 }, (_, i) => ({ streamName: `stream-${i}` }));
    const big = await t.http
      .post('/v1/apply?dryRun=true')
      .set(PROBLEM_HEADERS)
      .send({ scopes: [{ scopeName: 'a', streams }] })
      .expect(413);
    expect(big.body).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'The request body exceeds 2000 bytes',
    });
    await t.http
      .post('/v1/apply?dryRun=true')
      .send({ scopes: [{ scopeName: 'a' }] })
      .expect(200);
  });
});

describe('Declarative apply with authentication (e2e)', () => {
  let t: TestApp;
  const scope = 'owned';

  beforeAll(async () => {
    const file = await writeAccounts({
      admin: 'prn::*,READ_UPDATE',
      reader: `prn::/scope:${scope},READ;prn::/scope:${scope}/*,READ`,
      streamer: `prn::/scope:${scope},READ_UPDATE;prn::/scope:${scope}/stream:*,READ_UPDATE`,
      stranger: 'prn::/scope:elsewhere,READ',
    });
    t = await startTestApp({
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: file,
      AUTH_MAX_FAILURES: '1000',
    });
    await t.http
      .post('/v1/scopes')
      .set('Authorization', basic('admin'))
      .send({ scopeName: scope })
      .expect(201);
  });
  afterAll(() => t.close());

  const document = {
    scopes: [
      {
        scopeName: scope,
        streams: [{ streamName: 'orders' }],
        readerGroups: [{ readerGroupName: 'billing', streams: ['orders'] }],
      },
    ],
  };
  const as = (user: string | undefined, dryRun: boolean) => {
    const call = t.http.post(`/v1/apply${dryRun ? '?dryRun=true' : ''}`).set(PROBLEM_HEADERS);
    if (user) call.set('Authorization', basic(user));
    return call.send(document);
  };

  it('needs credentials, READ on each listed scope to plan, and each change’s permission to apply', async () => {
    await as(undefined, true).expect(401);
    const blind = await as('stranger', true).expect(403);
    expect(blind.body.detail).toContain(`READ on prn::/scope:${scope}`);

    await as('reader', true).expect(200);
    const reader = await as('reader', false).expect(403);
    expect(reader.body.code).toBe('PERMISSION_DENIED');
    expect(reader.body.detail).toContain(`READ_UPDATE on prn::/scope:${scope}`);
    expect(reader.body.missing).toContainEqual({
      permission: 'READ_UPDATE',
      resource: `prn::/scope:${scope}`,
    });
    // With an Idempotency-Key the apply runs in the key's transaction, which the refusal rolls
    // back: its record must outlive it.
    await as('reader', false).set('Idempotency-Key', 'denied-apply').expect(403);

    // Each refusal is recorded (the one without credentials too); nothing was written.
    const denied = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE outcome = 'DENIED' AND operation = 'applyDocument'`,
    );
    expect(denied[0].n).toBe(4);
    expect(
      await t.sql(`SELECT 1 FROM streams WHERE scope_name = $1 AND name = 'orders'`, [scope]),
    ).toEqual([]);

    const applied = await as('streamer', false).expect(200);
    expect(applied.body.summary).toEqual({ create: 2, update: 0, delete: 0, unchanged: 1 });
    const principals = await t.sql<{ principal: string; operation: string }>(
      `SELECT principal, operation FROM audit_events WHERE outcome = 'SUCCEEDED' AND principal = 'streamer' ORDER BY id`,
    );
    expect(principals.map((row) => row.operation)).toEqual([
      'createStream',
      'createReaderGroup',
      'applyDocument',
    ]);
  });

  it('needs READ_UPDATE on prn::/ to set a policy, as its PUT does', async () => {
    const policed = { scopes: [{ scopeName: scope, policy: { maxStreams: 9 } }] };
    const send = (user: string, dryRun: boolean) =>
      t.http
        .post(`/v1/apply${dryRun ? '?dryRun=true' : ''}`)
        .set(PROBLEM_HEADERS)
        .set('Authorization', basic(user))
        .send(policed);
    const plan = await send('streamer', true).expect(200);
    expect(plan.body.changes).toContainEqual({
      action: 'create',
      kind: 'scopePolicy',
      resource: `prn::/scope:${scope}`,
    });
    const refused = await send('streamer', false).expect(403);
    expect(refused.body.missing).toEqual([{ permission: 'READ_UPDATE', resource: 'prn::/' }]);
    expect(refused.body.detail).toContain('READ_UPDATE on prn::/');
    const policy = () =>
      t.http.get(`/v1/scopes/${scope}/policy`).set('Authorization', basic('admin')).expect(200);
    expect((await policy()).body).toEqual({});
    await send('admin', false).expect(200);
    expect((await policy()).body).toEqual({ maxStreams: 9 });
  });
});
