import { createHash } from 'node:crypto';
import type { AuditEventDto } from '../src/audit/dto/audit-event.dto';
import { basic, writeAccounts } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

type AuditEvent = AuditEventDto & {
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
};

const fixed = (minSegments: number) => ({
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
});

/** Every change is in the audit trail, written in the same transaction as the change. */
describe('Audit trail (e2e)', () => {
  let t: TestApp;
  const auditRows = async (): Promise<number> =>
    (await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_events'))[0].n;
  const events = async (query = ''): Promise<AuditEvent[]> =>
    (
      (await t.http.get(`/v1/audit?limit=1000${query}`).expect(200)).body as {
        auditEvents: AuditEvent[];
      }
    ).auditEvents;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('records every change with who, from where, which request, and what changed', async () => {
    // What the other tests recorded before this one, left out below (the newest come first).
    const earlier = (await events()).length;
    const changes: Array<[string, () => ReturnType<TestApp['http']['get']>, number]> = [
      ['createScope', () => t.http.post('/v1/scopes').send({ scopeName: 'a' }), 201],
      [
        'createStream',
        () => t.http.post('/v1/scopes/a/streams').send({ streamName: 's', ...fixed(1) }),
        201,
      ],
      ['createStream', () => t.http.post('/v1/scopes/a/streams').send({ streamName: 't' }), 201],
      ['updateStream', () => t.http.put('/v1/scopes/a/streams/s').send(fixed(3)), 200],
      [
        'createReaderGroup',
        () =>
          t.http.post('/v1/scopes/a/readergroups').send({ readerGroupName: 'g', streams: ['t'] }),
        201,
      ],
      ['setReaderOnline', () => t.http.put('/v1/scopes/a/readergroups/g/readers/r1'), 204],
      ['setReaderOffline', () => t.http.delete('/v1/scopes/a/readergroups/g/readers/r1'), 204],
      ['deleteReaderGroup', () => t.http.delete('/v1/scopes/a/readergroups/g'), 204],
      [
        'updateStreamState',
        () => t.http.put('/v1/scopes/a/streams/s/state').send({ streamState: 'SEALED' }),
        200,
      ],
      ['deleteStream', () => t.http.delete('/v1/scopes/a/streams/s'), 204],
      [
        'updateStreamState',
        () => t.http.put('/v1/scopes/a/streams/t/state').send({ streamState: 'SEALED' }),
        200,
      ],
      ['deleteStream', () => t.http.delete('/v1/scopes/a/streams/t'), 204],
      ['deleteScope', () => t.http.delete('/v1/scopes/a'), 204],
    ];
    for (const [i, [operation, call, status]] of changes.entries()) {
      const res = await call()
        .set('X-Request-Id', `audit-${i}`)
        .set('User-Agent', 'audit-test/1.0');
      expect([operation, res.status]).toEqual([operation, status]);
    }

    const all = await events();
    const recorded = all.slice(0, all.length - earlier).reverse();
    expect(recorded.map((e) => e.operation)).toEqual(changes.map(([operation]) => operation));
    recorded.forEach((event, i) => {
      expect(event).toMatchObject({
        principal: 'anonymous',
        requestId: `audit-${i}`,
        userAgent: 'audit-test/1.0',
        outcome: 'SUCCEEDED',
        clientAddress: expect.any(String),
        time: expect.any(Number),
      });
    });
    expect(recorded.map((e) => e.resource)).toEqual([
      'prn::/scope:a',
      'prn::/scope:a/stream:s',
      'prn::/scope:a/stream:t',
      'prn::/scope:a/stream:s',
      'prn::/scope:a/reader-group:g',
      'prn::/scope:a/reader-group:g',
      'prn::/scope:a/reader-group:g',
      'prn::/scope:a/reader-group:g',
      'prn::/scope:a/stream:s',
      'prn::/scope:a/stream:s',
      'prn::/scope:a/stream:t',
      'prn::/scope:a/stream:t',
      'prn::/scope:a',
    ]);
    const update = recorded[3];
    expect(update.before).toMatchObject({ scalingPolicy: { minSegments: 1 } });
    expect(update.after).toMatchObject({ scalingPolicy: { minSegments: 3 } });
    expect(recorded[4].after).toEqual({ readerGroupName: 'g', streamList: ['a/t'] });
  });

  it('records nothing for refused changes or changes that change nothing', async () => {
    await t.http.post('/v1/scopes').send({ scopeName: 'b' }).expect(201);
    await t.http.post('/v1/scopes/b/streams').send({ streamName: 's' }).expect(201);
    await t.http.put('/v1/scopes/b/streams/s/state').send({ streamState: 'SEALED' }).expect(200);
    const before = await auditRows();
    await t.http.post('/v1/scopes').send({ scopeName: 'b' }).expect(409);
    await t.http.delete('/v1/scopes/b').expect(412);
    await t.http.delete('/v1/scopes/missing').expect(404);
    await t.http.put('/v1/scopes/b/streams/s').send(fixed(2)).expect(412);
    await t.http.post('/v1/scopes/b/streams').send({ streamName: 'bad name' }).expect(400);
    await t.http.put('/v1/scopes/b/streams/s/state').send({ streamState: 'SEALED' }).expect(200);
    expect(await auditRows()).toBe(before);
  });

  it('rolls a change back when its audit record cannot be written', async () => {
    await t.http.post('/v1/scopes').send({ scopeName: 'c' }).expect(201);
    await t.sql(`
      CREATE FUNCTION refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.resource LIKE 'prn::/scope:doomed%' THEN RAISE EXCEPTION 'audit refused'; END IF;
        RETURN NEW;
      END $$`);
    await t.sql(`CREATE TRIGGER refuse_doomed BEFORE INSERT ON audit_events
                 FOR EACH ROW EXECUTE FUNCTION refuse_doomed()`);
    try {
      await t.http.post('/v1/scopes').send({ scopeName: 'doomed' }).expect(500);
      await t.http.get('/v1/scopes/doomed').expect(404);
      await t.http.post('/v1/scopes/c/streams').send({ streamName: 'kept' }).expect(201);
      expect((await events('&resource=prn::/scope:c/stream:kept')).length).toBe(1);
    } finally {
      await t.sql('DROP TRIGGER refuse_doomed ON audit_events');
    }
  });

  it('filters by resource, principal and time, newest first, within a limit', async () => {
    // Its own history, whatever the other tests did or whether they ran.
    await t.http.post('/v1/scopes').send({ scopeName: 'f' }).expect(201);
    await t.http.post('/v1/scopes/f/streams').send({ streamName: 's' }).expect(201);
    await t.http.put('/v1/scopes/f/streams/s').send(fixed(2)).expect(200);
    await t.http.put('/v1/scopes/f/streams/s/state').send({ streamState: 'SEALED' }).expect(200);
    await t.http.delete('/v1/scopes/f/streams/s').expect(204);
    await t.http.delete('/v1/scopes/f').expect(204);
    const all = await events();
    expect(all.length).toBeGreaterThanOrEqual(6);
    const times = all.map((e) => e.time);
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const onStream = await events('&resource=prn::/scope:f/stream:s');
    expect(onStream.map((e) => e.operation)).toEqual([
      'deleteStream',
      'updateStreamState',
      'updateStream',
      'createStream',
    ]);
    expect(await events('&principal=somebody')).toEqual([]);
    expect((await t.http.get('/v1/audit?limit=2').expect(200)).body.auditEvents).toEqual(
      all.slice(0, 2),
    );
    const middle = all[Math.floor(all.length / 2)].time;
    const since = await events(`&from=${middle}`);
    expect(since.length).toBeGreaterThan(0);
    expect(Math.min(...since.map((e) => e.time))).toBeGreaterThanOrEqual(middle);
    const until = await events(`&to=${middle}`);
    expect(until.length).toBeGreaterThan(0);
    expect(Math.max(...until.map((e) => e.time))).toBeLessThanOrEqual(middle);
    expect(since.length + until.length).toBeGreaterThanOrEqual(all.length);
  });

  it('refuses bad queries with 400', async () => {
    for (const query of [
      'limit=0',
      'limit=1001',
      'limit=x',
      'from=abc',
      'to=1.5',
      'from=9007199254740993',
      'resource=%00',
      'principal=a%00b',
      'resource=',
    ]) {
      const res = await t.http.get(`/v1/audit?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
    }
  });
});

describe('Audit trail with authentication (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    const file = await writeAccounts({
      admin: 'prn::*,READ_UPDATE',
      reader: 'prn::/scope:sales,READ',
    });
    t = await startTestApp({
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: file,
      AUTH_MAX_FAILURES: '100',
      // Tests speak for several clients (X-Forwarded-For), as the 401s of one are counted.
      TRUST_PROXY: 'loopback',
    });
  });
  afterAll(() => t.close());

  const eventsFrom = async (client: string, query = ''): Promise<AuditEvent[]> =>
    (
      (
        await t.http
          .get(`/v1/audit?limit=1000${query}`)
          .set('Authorization', basic('admin'))
          .expect(200)
      ).body as { auditEvents: AuditEvent[] }
    ).auditEvents.filter((event) => event.clientAddress === client);

  it('records the principal of changes, and every denied request', async () => {
    await t.http
      .post('/v1/scopes')
      .set('Authorization', basic('admin'))
      .send({ scopeName: 'sales' })
      .expect(201);
    await t.http
      .post('/v1/scopes')
      .set('Authorization', basic('reader'))
      .send({ scopeName: 'mine' })
      .expect(403);
    await t.http.get('/v1/scopes/sales').set('X-Request-Id', 'stranger-1').expect(401);
    await t.http.get('/v1/audit').set('Authorization', basic('reader')).expect(403);

    const res = await t.http.get('/v1/audit').set('Authorization', basic('admin')).expect(200);
    const recorded = (res.body as { auditEvents: AuditEvent[] }).auditEvents.reverse();
    expect(
      recorded.map(({ principal, operation, resource, outcome }) => ({
        principal,
        operation,
        resource,
        outcome,
      })),
    ).toEqual([
      {
        principal: 'admin',
        operation: 'createScope',
        resource: 'prn::/scope:sales',
        outcome: 'SUCCEEDED',
      },
      { principal: 'reader', operation: 'createScope', resource: 'prn::/', outcome: 'DENIED' },
      {
        principal: 'anonymous',
        operation: 'getScope',
        resource: 'prn::/scope:sales',
        outcome: 'DENIED',
      },
      { principal: 'reader', operation: 'listAuditEvents', resource: 'prn::/', outcome: 'DENIED' },
    ]);
    expect(recorded[2].requestId).toBe('stranger-1');
  });

  it('counts the 401s of a client address in one event a minute; each 403 is an event of its own', async () => {
    const stranger = '198.51.100.7';
    const refusals = [
      ...Array.from({ length: 12 }, () => t.http.get('/v1/scopes/sales')),
      ...Array.from({ length: 6 }, () => t.http.get('/v1/scopes')),
      ...Array.from({ length: 2 }, () =>
        t.http.get('/v1/scopes').set('Authorization', basic('admin', 'wrong')),
      ),
    ];
    // At once: the database adds them up, whatever their order.
    const statuses = await Promise.all(
      refusals.map(async (request) => (await request.set('X-Forwarded-For', stranger)).status),
    );
    expect(statuses).toEqual(refusals.map(() => 401));
    const counted = await eventsFrom(stranger);
    // One event, or two if the refusals straddled a minute.
    expect(counted.length === 1 || counted.length === 2).toBe(true);
    expect(counted.reduce((sum, event) => sum + event.count, 0)).toBe(20);
    for (const event of counted) {
      expect(event).toMatchObject({ principal: 'anonymous', outcome: 'DENIED' });
    }

    const reader = '198.51.100.8';
    for (let i = 0; i < 3; i++) {
      await t.http
        .post('/v1/scopes')
        .set('X-Forwarded-For', reader)
        .set('Authorization', basic('reader'))
        .send({ scopeName: 'refused' })
        .expect(403);
    }
    const refused = await eventsFrom(reader);
    expect(refused.map(({ principal, count }) => ({ principal, count }))).toEqual(
      [1, 2, 3].map(() => ({ principal: 'reader', count: 1 })),
    );
  });

  it('records a 401 of a name too long to index shortened, found by the whole name too', async () => {
    const client = '198.51.100.9';
    const name = 'n'.repeat(700);
    await t.http.get(`/v1/scopes/${name}`).set('X-Forwarded-For', client).expect(401);
    const resource = `prn::/scope:${name}`;
    const digest = createHash('sha256').update(resource).digest('hex');
    const [event] = await eventsFrom(client, `&resource=${resource}`);
    expect(event).toMatchObject({
      resource: `${resource.slice(0, 540)}…${digest}`,
      operation: 'getScope',
      count: 1,
    });
    expect(await eventsFrom(client, `&resource=${encodeURIComponent(event.resource)}`)).toEqual([
      event,
    ]);
  });
});

describe('Audit trail of several instances (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const instances: TestApp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: await writeAccounts({ admin: 'prn::*,READ_UPDATE' }),
      TRUST_PROXY: 'loopback',
    };
    for (let i = 0; i < 2; i++) instances.push(await startTestApp(env, () => database.url));
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await database?.drop();
  });

  it('counts the 401s one client sends to several instances in the same event', async () => {
    const client = '203.0.113.5';
    const statuses = await Promise.all(
      instances.flatMap((instance) =>
        Array.from({ length: 15 }, async () => {
          const res = await instance.http.get('/v1/scopes').set('X-Forwarded-For', client);
          return res.status;
        }),
      ),
    );
    expect(statuses).toEqual(Array.from({ length: 30 }, () => 401));
    const rows = await instances[0].sql<{ count: number }>(
      `SELECT request_count AS count FROM audit_events WHERE client_address = $1`,
      [client],
    );
    // One event, or two if the refusals straddled a minute.
    expect(rows.length === 1 || rows.length === 2).toBe(true);
    expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(30);
  });
});
