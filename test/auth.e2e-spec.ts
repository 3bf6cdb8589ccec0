import { basic, writeAccounts } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';

const ACCOUNTS = {
  admin: 'prn::*,READ_UPDATE',
  /** Reads the scope `sales` and everything in it. */
  reader: 'prn::/scope:sales,READ;prn::/scope:sales/*,READ',
  /** Changes what is in `sales`, but not the scope list. */
  writer: 'prn::/scope:sales,READ_UPDATE;prn::/scope:sales/*,READ_UPDATE',
  /** Sees one stream and one reader group of `sales`. */
  narrow:
    'prn::/scope:sales,READ;prn::/scope:sales/stream:orders,READ;prn::/scope:sales/reader-group:g,READ',
  /** Lists scopes (READ on the root) and reads `sales`. */
  lister: 'prn::/,READ;prn::/scope:sales,READ',
  /** Lists scopes, and reads those by prefix: `sal*`. */
  prefixed: 'prn::/,READ;prn::/scope:sal*,READ',
  nobody: 'prn::/scope:elsewhere,READ',
};
type User = keyof typeof ACCOUNTS;

interface Case {
  name: string;
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  body?: object;
  /** Has the credentials but not the permission. */
  denied: User;
  allowed: User;
  status: number;
}

/** Every operation, in an order in which each allowed call succeeds. */
const CASES: Case[] = [
  {
    name: 'createScope',
    method: 'post',
    path: '/v1/scopes',
    body: { scopeName: 'made' },
    denied: 'writer',
    allowed: 'admin',
    status: 201,
  },
  {
    name: 'listScopes',
    method: 'get',
    path: '/v1/scopes',
    denied: 'reader',
    allowed: 'lister',
    status: 200,
  },
  {
    name: 'getScope',
    method: 'get',
    path: '/v1/scopes/sales',
    denied: 'nobody',
    allowed: 'reader',
    status: 200,
  },
  {
    name: 'getScopePolicy',
    method: 'get',
    path: '/v1/scopes/sales/policy',
    denied: 'nobody',
    allowed: 'reader',
    status: 200,
  },
  {
    name: 'getScopeCompliance',
    method: 'get',
    path: '/v1/scopes/sales/policy/compliance',
    denied: 'nobody',
    allowed: 'reader',
    status: 200,
  },
  {
    // A scope's own writers cannot lift its limits: setting them is the right to create scopes.
    name: 'updateScopePolicy',
    method: 'put',
    path: '/v1/scopes/sales/policy',
    body: { owner: 'team-sales' },
    denied: 'writer',
    allowed: 'admin',
    status: 200,
  },
  {
    name: 'reportLoad',
    method: 'post',
    path: '/v1/scopes/sales/streams/orders/load',
    body: {
      reports: [
        {
          segment: 0,
          since: 0,
          twoMinuteRate: 0,
          fiveMinuteRate: 0,
          tenMinuteRate: 0,
          twentyMinuteRate: 0,
        },
      ],
    },
    denied: 'reader',
    allowed: 'writer',
    status: 200,
  },
  {
    name: 'getLoadScales',
    method: 'get',
    path: '/v1/scopes/sales/streams/orders/load',
    denied: 'nobody',
    allowed: 'narrow',
    status: 200,
  },
  {
    name: 'createStream',
    method: 'post',
    path: '/v1/scopes/sales/streams',
    body: { streamName: 'made' },
    denied: 'reader',
    allowed: 'writer',
    status: 201,
  },
  {
    name: 'listStreams',
    method: 'get',
    path: '/v1/scopes/sales/streams',
    denied: 'nobody',
    allowed: 'reader',
    status: 200,
  },
  {
    name: 'getStream',
    method: 'get',
    path: '/v1/scopes/sales/streams/orders',
    denied: 'nobody',
    allowed: 'narrow',
    status: 200,
  },
  {
    name: 'describeStream',
    method: 'get',
    path: '/v1/scopes/sales/streams/orders/description',
    denied: 'nobody',
    allowed: 'narrow',
    status: 200,
  },
  {
    name: 'updateStream',
    method: 'put',
    path: '/v1/scopes/sales/streams/made',
    body: { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 } },
    denied: 'reader',
    allowed: 'writer',
    status: 200,
  },
  {
    name: 'getScalingEvents',
    method: 'get',
    path: '/v1/scopes/sales/streams/orders/scaling-events?from=0&to=9999999999999',
    denied: 'nobody',
    allowed: 'narrow',
    status: 200,
  },
  {
    name: 'scaleStream',
    method: 'post',
    path: '/v1/scopes/sales/streams/made/scale',
    body: {
      sealedSegments: [1],
      newRanges: [
        { keyStart: 0, keyEnd: 0.25 },
        { keyStart: 0.25, keyEnd: 0.5 },
      ],
    },
    denied: 'reader',
    allowed: 'writer',
    status: 200,
  },
  {
    name: 'getSegments',
    method: 'get',
    path: '/v1/scopes/sales/streams/orders/segments?at=0',
    denied: 'nobody',
    allowed: 'narrow',
    status: 200,
  },
  {
    name: 'getSegment',
    method: 'get',
    path: '/v1/scopes/sales/streams/orders/segments/0',
    denied: 'nobody',
    allowed: 'narrow',
    status: 200,
  },
  {
    name: 'updateStreamState',
    method: 'put',
    path: '/v1/scopes/sales/streams/made/state',
    body: { streamState: 'SEALED' },
    denied: 'reader',
    allowed: 'writer',
    status: 200,
  },
  {
    name: 'deleteStream',
    method: 'delete',
    path: '/v1/scopes/sales/streams/made',
    denied: 'reader',
    allowed: 'writer',
    status: 204,
  },
  {
    name: 'createReaderGroup',
    method: 'post',
    path: '/v1/scopes/sales/readergroups',
    body: { readerGroupName: 'made', streams: ['orders'] },
    denied: 'reader',
    allowed: 'writer',
    status: 201,
  },
  {
    name: 'listReaderGroups',
    method: 'get',
    path: '/v1/scopes/sales/readergroups',
    denied: 'nobody',
    allowed: 'reader',
    status: 200,
  },
  {
    name: 'getReaderGroup',
    method: 'get',
    path: '/v1/scopes/sales/readergroups/g',
    denied: 'nobody',
    allowed: 'narrow',
    status: 200,
  },
  {
    name: 'setReaderOnline',
    method: 'put',
    path: '/v1/scopes/sales/readergroups/made/readers/r1',
    denied: 'reader',
    allowed: 'writer',
    status: 204,
  },
  {
    name: 'setReaderOffline',
    method: 'delete',
    path: '/v1/scopes/sales/readergroups/made/readers/r1',
    denied: 'reader',
    allowed: 'writer',
    status: 204,
  },
  {
    name: 'deleteReaderGroup',
    method: 'delete',
    path: '/v1/scopes/sales/readergroups/made',
    denied: 'reader',
    allowed: 'writer',
    status: 204,
  },
  {
    name: 'deleteScope',
    method: 'delete',
    path: '/v1/scopes/made',
    denied: 'writer',
    allowed: 'admin',
    status: 204,
  },
  {
    name: 'getDetails',
    method: 'get',
    path: '/v1/health/details',
    denied: 'reader',
    allowed: 'admin',
    status: 200,
  },
  {
    name: 'getContributorDetails',
    method: 'get',
    path: '/v1/health/details/database',
    denied: 'reader',
    allowed: 'admin',
    status: 200,
  },
];

/** docs/behaviour.md section 8, with AUTH_ENABLED. */
describe('Authentication and permissions (e2e)', () => {
  let t: TestApp;
  const as = (user: User | undefined, { method, path, body }: Case, password?: string) => {
    const call = t.http[method](path);
    if (user) call.set('Authorization', basic(user, password));
    return body ? call.send(body) : call;
  };

  beforeAll(async () => {
    const file = await writeAccounts(ACCOUNTS);
    t = await startTestApp({
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: file,
      AUTH_MAX_FAILURES: '1000',
    });
    const admin = basic('admin');
    for (const scopeName of ['sales', 'salt', 'hidden']) {
      await t.http.post('/v1/scopes').set('Authorization', admin).send({ scopeName }).expect(201);
    }
    for (const streamName of ['orders', 'payments']) {
      await t.http
        .post('/v1/scopes/sales/streams')
        .set('Authorization', admin)
        .send({ streamName })
        .expect(201);
    }
    for (const readerGroupName of ['g', 'h']) {
      await t.http
        .post('/v1/scopes/sales/readergroups')
        .set('Authorization', admin)
        .send({ readerGroupName, streams: ['orders'] })
        .expect(201);
    }
  });
  afterAll(() => t.close());

  it.each(CASES)(
    '$name: 401 without or with wrong credentials, 403 without permission, then allowed',
    async (c) => {
      const missing = await as(undefined, c);
      expect([c.name, missing.status]).toEqual([c.name, 401]);
      expect(missing.headers['www-authenticate']).toBe('Basic realm="tributary", charset="UTF-8"');
      expect(missing.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });

      expect((await as(c.allowed, c, 'wrong-password')).status).toBe(401);
      expect((await as('ghost' as User, c)).status).toBe(401);

      if (c.denied !== c.allowed) {
        const denied = await as(c.denied, c);
        expect([c.name, denied.status, denied.body.code]).toEqual([
          c.name,
          403,
          'PERMISSION_DENIED',
        ]);
      }
      const allowed = await as(c.allowed, c);
      expect([c.name, allowed.status]).toEqual([c.name, c.status]);
    },
  );

  it('refuses malformed Authorization headers with 401', async () => {
    for (const header of [
      'Bearer x',
      'Basic',
      'Basic !!!',
      `Basic ${Buffer.from('no-colon').toString('base64')}`,
    ]) {
      await t.http.get('/v1/scopes').set('Authorization', header).expect(401);
    }
  });

  it('filters lists to what the caller may read', async () => {
    const list = async (user: User, path: string) =>
      (await t.http.get(path).set('Authorization', basic(user)).expect(200)).body as Record<
        string,
        Array<Record<string, string>>
      >;
    expect((await list('admin', '/v1/scopes')).scopes.map((s) => s.scopeName).sort()).toEqual([
      'hidden',
      'sales',
      'salt',
    ]);
    expect((await list('lister', '/v1/scopes')).scopes.map((s) => s.scopeName)).toEqual(['sales']);
    expect((await list('prefixed', '/v1/scopes')).scopes.map((s) => s.scopeName).sort()).toEqual([
      'sales',
      'salt',
    ]);
    expect(
      (await list('reader', '/v1/scopes/sales/streams')).streams.map((s) => s.streamName).sort(),
    ).toEqual(['orders', 'payments']);
    expect(
      (await list('narrow', '/v1/scopes/sales/streams')).streams.map((s) => s.streamName),
    ).toEqual(['orders']);
    expect((await list('narrow', '/v1/scopes/sales/readergroups')).readerGroups).toEqual([
      { readerGroupName: 'g' },
    ]);
    expect(
      (await list('reader', '/v1/scopes/sales/readergroups')).readerGroups
        .map((g) => g.readerGroupName)
        .sort(),
    ).toEqual(['g', 'h']);
  });

  it('refuses the scope list with 403 to an account without READ on prn::/ (as the reference)', async () => {
    for (const user of ['nobody', 'reader', 'narrow'] as const) {
      const res = await t.http.get('/v1/scopes').set('Authorization', basic(user));
      expect([user, res.status, res.body.code]).toEqual([user, 403, 'PERMISSION_DENIED']);
      expect(res.body.detail).toContain('READ on prn::/');
      // What is missing, for a client to explain (GET /v1/auth/explain).
      expect(res.body.missing).toEqual([{ permission: 'READ', resource: 'prn::/' }]);
    }
  });

  it('asks for credentials before looking at names (no 404 to strangers)', async () => {
    await t.http.get('/v1/scopes/missing').expect(401);
    await t.http.get('/v1/scopes/missing').set('Authorization', basic('nobody')).expect(403);
    await t.http.get('/v1/scopes/missing').set('Authorization', basic('admin')).expect(404);
  });

  it('counts refusals by reason in the metrics', async () => {
    const counts = async (): Promise<Record<string, number>> => {
      const scrape = (await t.http.get('/metrics').expect(200)).text;
      const count = (reason: string): number =>
        Number(
          new RegExp(`tributary_auth_failures_total\\{reason="${reason}"\\} (\\d+)`).exec(
            scrape,
          )?.[1] ?? 0,
        );
      return Object.fromEntries(
        ['missing_credentials', 'invalid_credentials', 'forbidden'].map((r) => [r, count(r)]),
      );
    };
    const before = await counts();
    await t.http.get('/v1/scopes/sales').expect(401);
    await t.http.get('/v1/scopes/sales').set('Authorization', basic('admin', 'wrong')).expect(401);
    await t.http.get('/v1/scopes/sales').set('Authorization', basic('nobody')).expect(403);
    await t.http.get('/v1/scopes/sales').set('Authorization', basic('nobody')).expect(403);
    const after = await counts();
    expect({
      missing: after.missing_credentials - before.missing_credentials,
      invalid: after.invalid_credentials - before.invalid_credentials,
      forbidden: after.forbidden - before.forbidden,
    }).toEqual({ missing: 1, invalid: 1, forbidden: 2 });
  });

  it('keeps health (but details) and the probes open', async () => {
    for (const path of [
      '/v1/health',
      '/v1/health/status',
      '/v1/health/readiness/database',
      '/ping',
      '/livez',
      '/readyz',
    ]) {
      expect([path, (await t.http.get(path)).status]).toEqual([path, 200]);
    }
  });
});

describe('Authentication with closed health and few allowed failures (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    const file = await writeAccounts({
      admin: 'prn::*,READ_UPDATE',
      reader: 'prn::*,READ',
      nobody: 'prn::/scope:x,READ',
    });
    t = await startTestApp({
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: file,
      AUTH_HEALTH_OPEN: 'false',
      AUTH_MAX_FAILURES: '3',
    });
  });
  afterAll(() => t.close());

  it('asks for READ on prn::/ on health and probes when AUTH_HEALTH_OPEN is false', async () => {
    for (const path of ['/v1/health', '/livez', '/readyz', '/ping']) {
      expect([path, (await t.http.get(path)).status]).toEqual([path, 401]);
      expect([path, (await t.http.get(path).set('Authorization', basic('nobody'))).status]).toEqual(
        [path, 403],
      );
      expect([path, (await t.http.get(path).set('Authorization', basic('admin'))).status]).toEqual([
        path,
        200,
      ]);
    }
  });

  it('shows the health details to those allowed /v1/health/details alone', async () => {
    for (const path of ['/v1/health', '/v1/health/disk']) {
      const reader = await t.http.get(path).set('Authorization', basic('reader')).expect(200);
      expect([path, reader.body.status, reader.body.details]).toEqual([
        path,
        expect.any(String),
        undefined,
      ]);
      const admin = await t.http.get(path).set('Authorization', basic('admin')).expect(200);
      expect([path, admin.body.details]).toEqual([path, expect.any(Object)]);
    }
  });

  it('does not count requests without credentials as failed logins', async () => {
    for (let i = 0; i < 5; i++) await t.http.get('/v1/auth/whoami').expect(401);
    await t.http.get('/v1/scopes').set('Authorization', basic('admin')).expect(200);
  });

  it('answers 429 with Retry-After after repeated failures, even to the right password', async () => {
    for (let i = 0; i < 3; i++) {
      await t.http.get('/v1/scopes').set('Authorization', basic('admin', 'guess')).expect(401);
    }
    const blocked = await t.http.get('/v1/scopes').set('Authorization', basic('admin'));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body).toMatchObject({ code: 'TOO_MANY_AUTH_FAILURES' });
  });
});
