import type { Response } from 'supertest';
import { basic, bearer, writeAccounts, writeGroupAcls } from './support/accounts';
import { eventually } from './support/eventually';
import { AUDIENCE, forge, signingKey, TestOidcProvider } from './support/oidc-provider';
import { startTestApp, TestApp } from './support/test-app';

const GROUP_ACLS = {
  admins: 'prn::*,READ_UPDATE',
  'sales-readers': 'prn::/scope:sales,READ;prn::/scope:sales/*,READ',
  'sales-writers': 'prn::/scope:sales,READ_UPDATE;prn::/scope:sales/*,READ_UPDATE',
  listers: 'prn::/,READ',
};

/** Client-credentials clients of the provider, by the groups (and ACL claim) of their tokens. */
const CLIENTS = {
  'admin-client': { groups: ['admins'] },
  'reader-client': { groups: ['sales-readers'] },
  'writer-client': { groups: ['sales-writers'] },
  'lister-client': { groups: ['listers', 'sales-readers'] },
  'stranger-client': { groups: ['strangers'] },
  /** Its own ACL claim hides one stream that its group would show. */
  'claim-client': { groups: ['sales-readers'], acl: 'prn::/scope:sales/stream:secret,NONE' },
};
type Client = keyof typeof CLIENTS;

const INVALID_TOKEN = 'Bearer realm="tributary", error="invalid_token"';

/** The service's settings for bearer tokens of `provider`, beside a Basic admin account. */
async function settings(provider: TestOidcProvider): Promise<NodeJS.ProcessEnv> {
  return {
    AUTH_ENABLED: 'true',
    AUTH_ACCOUNTS_FILE: await writeAccounts({ admin: 'prn::*,READ_UPDATE' }),
    AUTH_GROUP_ACLS_FILE: await writeGroupAcls(GROUP_ACLS),
    AUTH_OIDC_ISSUER: provider.issuer,
    AUTH_OIDC_AUDIENCE: AUDIENCE,
    AUTH_OIDC_ACL_CLAIM: 'acl',
    AUTH_MAX_FAILURES: '1000',
    // A test may speak for several clients (X-Forwarded-For), as the 401s of one are counted.
    TRUST_PROXY: 'loopback',
  };
}

/** The audit row of the request that got `res`. */
async function auditOf(t: TestApp, res: Response) {
  const rows = await t.sql<{ outcome: string; principal: string; after: object | null }>(
    'SELECT outcome, principal, after FROM audit_events WHERE request_id = $1',
    [res.headers['x-request-id']],
  );
  return rows;
}

/** The health contributor `oidc`, as `GET /v1/health/oidc` answers it. */
const oidcHealth = async (t: TestApp): Promise<string> =>
  ((await t.http.get('/v1/health/oidc').expect(200)).body as { status: string }).status;

describe('Bearer tokens of an OpenID Connect provider (e2e, in-process provider)', () => {
  let provider: TestOidcProvider;
  let t: TestApp;
  const tokens = {} as Record<Client, string>;
  const as = (client: Client) => bearer(tokens[client]);

  beforeAll(async () => {
    provider = await TestOidcProvider.start({ clients: CLIENTS });
    t = await startTestApp(await settings(provider));
    for (const client of Object.keys(CLIENTS) as Client[]) {
      tokens[client] = await provider.clientToken(client);
    }
    const admin = basic('admin');
    for (const scopeName of ['sales', 'hidden']) {
      await t.http.post('/v1/scopes').set('Authorization', admin).send({ scopeName }).expect(201);
    }
    for (const streamName of ['orders', 'secret']) {
      await t.http
        .post('/v1/scopes/sales/streams')
        .set('Authorization', admin)
        .send({ streamName })
        .expect(201);
    }
  });
  afterAll(async () => {
    await t?.close();
    await provider?.down();
  });

  it('gives each group what its ACL grants, and 403 beyond it', async () => {
    const status = async (client: Client, method: 'get' | 'post', path: string, body?: object) => [
      client,
      method,
      path,
      (await t.http[method](path).set('Authorization', as(client)).send(body)).status,
    ];
    const stream = { streamName: 'made-by-token' };
    expect(
      await Promise.all([
        status('admin-client', 'get', '/v1/scopes'),
        status('admin-client', 'get', '/v1/scopes/hidden'),
        status('reader-client', 'get', '/v1/scopes/sales'),
        status('reader-client', 'get', '/v1/scopes/sales/streams/orders'),
        status('reader-client', 'get', '/v1/scopes'),
        status('reader-client', 'get', '/v1/scopes/hidden'),
        status('reader-client', 'post', '/v1/scopes/sales/streams', stream),
        status('stranger-client', 'get', '/v1/scopes/sales'),
        status('claim-client', 'get', '/v1/scopes/sales/streams/orders'),
        status('claim-client', 'get', '/v1/scopes/sales/streams/secret'),
      ]),
    ).toEqual([
      ['admin-client', 'get', '/v1/scopes', 200],
      ['admin-client', 'get', '/v1/scopes/hidden', 200],
      ['reader-client', 'get', '/v1/scopes/sales', 200],
      ['reader-client', 'get', '/v1/scopes/sales/streams/orders', 200],
      ['reader-client', 'get', '/v1/scopes', 403],
      ['reader-client', 'get', '/v1/scopes/hidden', 403],
      ['reader-client', 'post', '/v1/scopes/sales/streams', 403],
      ['stranger-client', 'get', '/v1/scopes/sales', 403],
      ['claim-client', 'get', '/v1/scopes/sales/streams/orders', 200],
      ['claim-client', 'get', '/v1/scopes/sales/streams/secret', 403],
    ]);
    expect(await status('writer-client', 'post', '/v1/scopes/sales/streams', stream)).toEqual([
      'writer-client',
      'post',
      '/v1/scopes/sales/streams',
      201,
    ]);
    const changed = await t.sql<{ principal: string }>(
      "SELECT principal FROM audit_events WHERE operation = 'createStream' AND outcome = 'SUCCEEDED' AND resource = $1",
      ['prn::/scope:sales/stream:made-by-token'],
    );
    expect(changed).toEqual([{ principal: 'writer-client' }]);
  });

  it('filters lists to what the token may READ, and the apply asks the same check per change', async () => {
    const scopes = await t.http.get('/v1/scopes').set('Authorization', as('lister-client'));
    expect(scopes.body).toEqual({ scopes: [{ scopeName: 'sales' }] });
    const streams = await t.http
      .get('/v1/scopes/sales/streams')
      .set('Authorization', as('claim-client'))
      .expect(200);
    expect(
      (streams.body as { streams: { streamName: string }[] }).streams.map((s) => s.streamName),
    ).not.toContain('secret');

    const document = { scopes: [{ scopeName: 'sales', streams: [{ streamName: 'applied' }] }] };
    const refused = await t.http
      .post('/v1/apply')
      .set('Authorization', as('reader-client'))
      .send(document);
    expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_DENIED']);
    const planned = await t.http
      .post('/v1/apply?dryRun=true')
      .set('Authorization', as('reader-client'))
      .send(document);
    expect(planned.status).toBe(200);
    const applied = await t.http
      .post('/v1/apply')
      .set('Authorization', as('writer-client'))
      .send(document);
    expect([applied.status, applied.body.summary]).toEqual([
      200,
      { create: 1, update: 0, delete: 0, unchanged: 1 },
    ]);
  });

  it('answers whoami for a token: principal, method, groups in order, ACL in order, expiry', async () => {
    const res = await t.http.get('/v1/auth/whoami').set('Authorization', as('claim-client'));
    const { expiresAt, ...identity } = res.body as { expiresAt: number };
    expect([res.status, identity]).toEqual([
      200,
      {
        principal: 'claim-client',
        method: 'bearer',
        groups: ['sales-readers'],
        acl: [
          'prn::/scope:sales/stream:secret,NONE',
          'prn::/scope:sales,READ',
          'prn::/scope:sales/*,READ',
        ],
      },
    ]);
    expect(expiresAt).toBeGreaterThan(Date.now());
    expect(expiresAt % 1000).toBe(0);
    const account = await t.http.get('/v1/auth/whoami').set('Authorization', basic('admin'));
    expect(account.body).toEqual({
      principal: 'admin',
      method: 'basic',
      groups: [],
      acl: ['prn::*,READ_UPDATE'],
    });
    const stranger = await t.http
      .get('/v1/auth/whoami')
      .set('Authorization', as('stranger-client'));
    expect([stranger.status, stranger.body.groups, stranger.body.acl]).toEqual([
      200,
      ['strangers'],
      [],
    ]);
  });

  it('explains a decision with the entry and source that made it, as the route decides', async () => {
    const explain = async (authorization: string, resource: string, permission: string) =>
      (
        await t.http
          .get('/v1/auth/explain')
          .query({ resource, permission })
          .set('Authorization', authorization)
          .expect(200)
      ).body as object;
    expect(await explain(as('claim-client'), 'prn::/scope:sales/stream:secret', 'READ')).toEqual({
      allowed: false,
      matchedEntry: 'prn::/scope:sales/stream:secret,NONE',
      source: 'claim',
    });
    expect(await explain(as('claim-client'), 'prn::/scope:sales/stream:orders', 'READ')).toEqual({
      allowed: true,
      matchedEntry: 'prn::/scope:sales/*,READ',
      source: 'group:sales-readers',
    });
    expect(
      await explain(as('claim-client'), 'prn::/scope:sales/stream:orders', 'READ_UPDATE'),
    ).toEqual({
      allowed: false,
      matchedEntry: 'prn::/scope:sales/*,READ',
      source: 'group:sales-readers',
    });
    expect(await explain(as('stranger-client'), 'prn::/', 'READ')).toEqual({ allowed: false });
    expect(await explain(basic('admin'), 'prn::/scope:x/reader-group:g', 'READ_UPDATE')).toEqual({
      allowed: true,
      matchedEntry: 'prn::*,READ_UPDATE',
      source: 'account',
    });
  });

  it.each([
    [{ resource: 'prn::/scope:sales/*', permission: 'READ' }, 'resource'],
    [{ resource: 'prn::/scope:', permission: 'READ' }, 'resource'],
    [{ resource: 'scope:sales', permission: 'READ' }, 'resource'],
    [{ resource: 'prn::/scope:a/topic:b', permission: 'READ' }, 'resource'],
    [{ resource: 'prn::/', permission: 'NONE' }, 'permission'],
    [{ resource: 'prn::/', permission: 'read' }, 'permission'],
    [{ resource: 'prn::/' }, 'permission'],
    [{ permission: 'READ' }, 'resource'],
  ])('refuses explain?%j with 400 naming %s', async (query, field) => {
    const res = await t.http
      .get('/v1/auth/explain')
      .query(query)
      .set('Authorization', as('admin-client'));
    expect([res.status, res.body.errors?.map((e: { field: string }) => e.field)]).toEqual([
      400,
      [field],
    ]);
  });

  it('refuses every kind of bad token with 401 invalid_token, audited DENIED with the reason', async () => {
    const valid = tokens['reader-client'];
    const claims = provider.claims('forger', { groups: ['admins'] });
    const foreign = await signingKey(provider.keys[0].kid);
    const unknown = await signingKey('never-published');
    const cases: [string, string, string][] = [
      ['malformed', 'not-a-jwt', 'malformed'],
      ['three parts of nothing', 'a.b.c', 'malformed'],
      ['empty', '', 'malformed'],
      [
        'expired',
        await forge.signed(provider, { ...claims, exp: Math.floor(Date.now() / 1000) - 3600 }),
        'expired',
      ],
      [
        'not yet valid',
        await forge.signed(provider, { ...claims, nbf: Math.floor(Date.now() / 1000) + 3600 }),
        'not yet valid',
      ],
      [
        'another issuer',
        await forge.signed(provider, { ...claims, iss: 'http://127.0.0.1:1/elsewhere' }),
        'issued by another issuer',
      ],
      [
        'another audience',
        await forge.signed(provider, { ...claims, aud: 'urn:someone-else' }),
        'meant for another audience',
      ],
      ['alg none', forge.unsigned(claims), 'its algorithm is not accepted'],
      [
        'HS256 keyed with the public key',
        await forge.hmacWithPublicKey(provider, claims),
        'its algorithm is not accepted',
      ],
      [
        'a foreign key with a known kid',
        await forge.signed(provider, claims, { key: foreign }),
        'its signature does not verify',
      ],
      [
        'an unknown kid',
        await forge.signed(provider, claims, { key: unknown }),
        'signed with an unknown key',
      ],
      ['a tampered signature', forge.tampered(valid, claims), 'its signature does not verify'],
      [
        'no exp',
        await forge.signed(provider, { ...claims, exp: undefined }),
        'the exp claim is missing',
      ],
    ];
    // Each from a client of its own: the 401s of one client address are counted in one event
    // a minute, which names the first (docs/extensions.md section 12).
    for (const [i, [name, token, reason]] of cases.entries()) {
      const res = await t.http
        .get('/v1/scopes/sales')
        .set('X-Forwarded-For', `192.0.2.${i + 1}`)
        .set('Authorization', bearer(token))
        .set('Accept', 'application/problem+json');
      expect([name, res.status, res.headers['www-authenticate'], res.body.code]).toEqual([
        name,
        401,
        INVALID_TOKEN,
        'INVALID_TOKEN',
      ]);
      expect([name, res.body.detail]).toEqual([name, `The bearer token is not valid: ${reason}`]);
      expect([name, await auditOf(t, res)]).toEqual([
        name,
        [{ outcome: 'DENIED', principal: 'anonymous', after: { reason } }],
      ]);
    }
  });

  it('accepts a token within AUTH_OIDC_CLOCK_TOLERANCE_S (30 s) of its exp and nbf, not beyond', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = provider.claims('clock', { groups: ['sales-readers'] });
    const statusOf = async (extra: object) =>
      (
        await t.http
          .get('/v1/scopes/sales')
          .set('Authorization', bearer(await forge.signed(provider, { ...claims, ...extra })))
      ).status;
    expect([
      await statusOf({ exp: now - 10 }),
      await statusOf({ exp: now - 60 }),
      await statusOf({ nbf: now + 10 }),
      await statusOf({ nbf: now + 60 }),
    ]).toEqual([200, 401, 200, 401]);
  });

  it('keeps Basic accounts, and asks for either kind of credentials', async () => {
    await t.http.get('/v1/scopes/hidden').set('Authorization', basic('admin')).expect(200);
    const wrong = await t.http.get('/v1/scopes').set('Authorization', basic('admin', 'wrong'));
    const missing = await t.http.get('/v1/scopes');
    for (const res of [wrong, missing]) {
      expect([res.status, res.headers['www-authenticate'], res.body.code]).toEqual([
        401,
        'Basic realm="tributary", charset="UTF-8", Bearer realm="tributary"',
        'UNAUTHENTICATED',
      ]);
    }
  });

  it('reports the provider UP in the health contributor oidc', async () => {
    expect(await oidcHealth(t)).toBe('UP');
  });
});

describe('Keys and outages of the provider (e2e, in-process provider)', () => {
  let provider: TestOidcProvider;
  let t: TestApp;
  const realNow = Date.now.bind(Date);

  /** The service's clock runs `ms` ahead from now on: jose's cooldown sees time pass. */
  const clockAhead = (ms: number) =>
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);

  beforeAll(async () => {
    provider = await TestOidcProvider.start({ clients: CLIENTS });
    t = await startTestApp({ ...(await settings(provider)), HEALTH_CACHE_MS: '0' });
    await t.http
      .post('/v1/scopes')
      .set('Authorization', basic('admin'))
      .send({ scopeName: 'sales' });
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await t?.close();
    await provider?.down();
  });

  const statusWith = async (token: string) =>
    (await t.http.get('/v1/scopes/sales').set('Authorization', bearer(token))).status;

  it('fetches a new key on its first kid, at most once per cooldown (30 s)', async () => {
    const before = provider.jwksRequests;
    const old = await provider.clientToken('reader-client');
    provider.useKeys([await signingKey('key-2'), ...provider.keys]);
    const rotated = await provider.clientToken('reader-client');

    // The keys were fetched at start, less than 30 s ago: an unknown kid fetches nothing.
    expect([await statusWith(rotated), provider.jwksRequests - before]).toEqual([401, 0]);

    clockAhead(31_000);
    expect([await statusWith(rotated), provider.jwksRequests - before]).toEqual([200, 1]);
    expect([await statusWith(old), await statusWith(rotated)]).toEqual([200, 200]);
    const stranger = await forge.signed(provider, provider.claims('x'), {
      key: await signingKey('key-3'),
    });
    expect([await statusWith(stranger), await statusWith(stranger)]).toEqual([401, 401]);
    expect(provider.jwksRequests - before).toBe(1);
  });

  it('keeps known keys while the provider is down; unknown keys 503; health oidc DOWN, then UP', async () => {
    const known = await provider.clientToken('reader-client');
    await provider.down();
    try {
      expect(await eventually(() => oidcHealth(t), 'DOWN')).toBe('DOWN');
      expect(await statusWith(known)).toBe(200);
      // Past the cooldown, an unknown kid asks the provider, which does not answer.
      clockAhead(62_000);
      const unknown = await forge.signed(provider, provider.claims('x'), {
        key: await signingKey('key-4'),
      });
      const res = await t.http.get('/v1/scopes/sales').set('Authorization', bearer(unknown));
      expect([res.status, res.body.code, res.headers['retry-after']]).toEqual([
        503,
        'ISSUER_UNAVAILABLE',
        '5',
      ]);
      expect((await t.http.get('/livez')).status).toBe(200);
    } finally {
      await provider.up();
    }
    expect(await eventually(() => oidcHealth(t), 'UP')).toBe('UP');
  });
});

describe('A provider down when the service starts (e2e, in-process provider)', () => {
  let provider: TestOidcProvider;
  let t: TestApp;

  beforeAll(async () => {
    provider = await TestOidcProvider.start({ clients: CLIENTS }, false);
    t = await startTestApp({ ...(await settings(provider)), HEALTH_CACHE_MS: '0' });
    await t.http
      .post('/v1/scopes')
      .set('Authorization', basic('admin'))
      .send({ scopeName: 'sales' });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.down();
  });

  it('starts, refuses tokens with 503 and is DOWN (alive) until the provider answers', async () => {
    // The details are for those allowed /v1/health/details.
    const health = await t.http
      .get('/v1/health/oidc')
      .set('Authorization', basic('admin'))
      .expect(200);
    expect([health.body.status, health.body.details.issuer]).toEqual(['DOWN', provider.issuer]);
    expect(health.body.details.message).toContain('fetch failed');
    expect((await t.http.get('/livez')).status).toBe(200);
    expect((await t.http.get('/readyz')).status).toBe(503);
    const early = await forge.signed(provider, provider.claims('early', { groups: ['admins'] }));
    const refused = await t.http.get('/v1/scopes/sales').set('Authorization', bearer(early));
    expect([refused.status, refused.body.code]).toEqual([503, 'ISSUER_UNAVAILABLE']);
    // Basic accounts do not depend on the provider.
    await t.http.get('/v1/scopes/sales').set('Authorization', basic('admin')).expect(200);

    await provider.up();
    expect(await eventually(() => oidcHealth(t), 'UP')).toBe('UP');
    const token = await provider.clientToken('reader-client');
    expect((await t.http.get('/v1/scopes/sales').set('Authorization', bearer(token))).status).toBe(
      200,
    );
    expect((await t.http.get('/readyz')).status).toBe(200);
  });
});

describe('A discovery document naming another issuer (e2e, in-process provider)', () => {
  let provider: TestOidcProvider;
  let t: TestApp;

  beforeAll(async () => {
    provider = await TestOidcProvider.start({ clients: CLIENTS });
    // The same provider, named with a trailing slash: its document says otherwise.
    t = await startTestApp({
      ...(await settings(provider)),
      AUTH_OIDC_ISSUER: `${provider.issuer}/`,
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.down();
  });

  it('trusts none of its keys: tokens 503, health oidc DOWN saying why', async () => {
    const health = await t.http
      .get('/v1/health/oidc')
      .set('Authorization', basic('admin'))
      .expect(200);
    expect([health.body.status, health.body.details.message]).toEqual([
      'DOWN',
      expect.stringContaining('not AUTH_OIDC_ISSUER'),
    ]);
    const token = await provider.clientToken('admin-client');
    expect((await t.http.get('/v1/scopes').set('Authorization', bearer(token))).status).toBe(503);
  });
});

describe('whoami and explain without authentication (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answer for anonymous, who may do everything', async () => {
    const whoami = await t.http.get('/v1/auth/whoami').expect(200);
    expect(whoami.body).toEqual({
      principal: 'anonymous',
      method: 'anonymous',
      groups: [],
      acl: ['prn::*,READ_UPDATE'],
    });
    const explained = await t.http
      .get('/v1/auth/explain?resource=prn::/scope:any/stream:thing&permission=READ_UPDATE')
      .expect(200);
    expect(explained.body).toEqual({ allowed: true, matchedEntry: 'prn::*,READ_UPDATE' });
    await t.http.get('/v1/auth/explain?resource=nope&permission=READ').expect(400);
    // A bearer token means nothing here: nothing is checked.
    await t.http.get('/v1/scopes').set('Authorization', 'Bearer whatever').expect(200);
  });
});
