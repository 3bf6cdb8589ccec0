import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { AuditEventDto } from '../src/audit/dto/audit-event.dto';
import { AuditRepository } from '../src/audit/audit.repository';
import { AuditRetention } from '../src/audit/audit-retention.service';
import { basic, writeAccounts } from './support/accounts';
import { recordFigure } from './support/figures';
import { beside, CPU_BUDGET_MS, hostileTarget, REQUEST_CPU_BUDGET_MS } from './support/hostile';
import { Answer, sendFrom } from './support/http-forwarder';
import type { ServiceProcess } from './support/service-process';
import { startTestApp, TestApp } from './support/test-app';

const ADMIN = { authorization: basic('admin') };
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
/** Characters no compression can shrink: PostgreSQL stores and indexes them as sent. */
const randomName = (length: number): string =>
  randomBytes(length).toString('base64url').slice(0, length);

const ATTACK_REQUESTS = 2000;
const ATTACK_PATH_CHARS = 15_000;
const ATTACKERS = 8;

/**
 * Clients without credentials may send whatever they like, as often as they like: every 401 is
 * in the audit trail, and what the trail keeps of them stays small (docs/extensions.md section
 * 10). Each attacker has a loopback address of its own (127.0.0.x), so it has its own events.
 */
describe('The audit trail under hostile clients (e2e)', () => {
  let target: Awaited<ReturnType<typeof hostileTarget>>;
  let service: ServiceProcess;
  let port: number;
  let sql: Client;

  beforeAll(async () => {
    target = await hostileTarget({
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: await writeAccounts({ admin: 'prn::*,READ_UPDATE' }),
      // The attack is about the trail, not the failed-login limit (no credentials are sent).
      AUTH_MAX_FAILURES: '1000000',
      LOG_LEVEL: 'warn',
    });
    service = target.service;
    port = Number(new URL(service.baseUrl).port);
    sql = new Client({ connectionString: target.databaseUrl });
    await sql.connect();
    // The path of a refusal warmed up, as the probe's is before it is timed: a short name's, and
    // a long one's, whose resource is shortened to its start and digest, code a short name never
    // runs (timed cold, a long name's first refusal once took 145 ms under the whole suite).
    for (let i = 0; i < 5; i++) {
      for (const name of ['warm', randomName(4000)]) {
        expect((await sendFrom('127.0.0.10', port, { path: `/v1/scopes/${name}` })).status).toBe(
          401,
        );
      }
    }
  });
  afterAll(async () => {
    await sql?.end();
    await target?.stop();
  });

  /** The trail's events of one client address, newest first, as an administrator reads them. */
  async function eventsOf(client: string, query = ''): Promise<AuditEventDto[]> {
    const res = await fetch(`${service.baseUrl}/v1/audit?limit=1000${query}`, { headers: ADMIN });
    expect(res.status).toBe(200);
    const { auditEvents } = (await res.json()) as { auditEvents: AuditEventDto[] };
    return auditEvents.filter((event) => event.clientAddress === client);
  }

  const tableBytes = async (): Promise<number> =>
    Number(
      (await sql.query<{ bytes: string }>(`SELECT pg_total_relation_size('audit_events') AS bytes`))
        .rows[0].bytes,
    );
  const databaseNowMs = async (): Promise<number> =>
    Number(
      (await sql.query<{ ms: string }>(`SELECT floor(extract(epoch FROM now()) * 1000) AS ms`))
        .rows[0].ms,
    );
  const noRecordFailed = () =>
    expect(service.lines.filter((line) => line.includes('could not record'))).toEqual([]);

  function expectRefused(answer: Answer): void {
    expect(answer.status).toBe(401);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(answer.body) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(answer.body).not.toMatch(/index row|btree|INSERT|audit_events|\n\s+at /);
  }

  it('records the 401 of a 4,000-character name, shortened to its start and the digest of the whole', async () => {
    const client = '127.0.0.11';
    const name = randomName(4000);
    const cost = await beside(
      service,
      () =>
        sendFrom(client, port, {
          path: `/v1/scopes/${name}`,
          headers: { 'x-request-id': 'long-name' },
        }),
      { headers: ADMIN },
    );
    expectRefused(cost.value);
    recordFigure('audit: 401 of a 4,000-character name, service CPU ms', cost.serviceCpuMs);
    expect(cost.serviceCpuMs).toBeLessThanOrEqual(CPU_BUDGET_MS);

    const resource = `prn::/scope:${name}`;
    const stored = `${resource.slice(0, 540)}…${sha256(resource)}`;
    const [event] = await eventsOf(client);
    expect(event).toMatchObject({
      principal: 'anonymous',
      operation: 'getScope',
      outcome: 'DENIED',
      requestId: 'long-name',
      resource: stored,
      count: 1,
    });
    // The shortened name finds it, as the whole one would (were it short enough to send).
    const found = await eventsOf(client, `&resource=${encodeURIComponent(stored)}`);
    expect(found.map((e) => e.id)).toEqual([event.id]);
    noRecordFailed();
  });

  it('records the 401 of a name that PostgreSQL cannot store (a NUL)', async () => {
    const client = '127.0.0.12';
    const answer = await sendFrom(client, port, { path: '/v1/scopes/a%00b/streams' });
    expectRefused(answer);
    const events = await eventsOf(client);
    expect(
      events.map(({ resource, operation, count }) => ({ resource, operation, count })),
    ).toEqual([{ resource: 'prn::/scope:a\uFFFDb', operation: 'listStreams', count: 1 }]);
    noRecordFailed();
  });

  it('counts 2,000 refusals of 15 KB paths from one address in one event a minute, in little space', async () => {
    const client = '127.0.0.13';
    const bytesBefore = await tableBytes();
    const startedMs = await databaseNowMs();
    let sent = 0;
    const statuses = new Map<number, number>();
    const cost = await beside(
      service,
      () =>
        Promise.all(
          Array.from({ length: ATTACKERS }, async () => {
            while (sent < ATTACK_REQUESTS) {
              sent++;
              const path = `/v1/scopes/${randomName(ATTACK_PATH_CHARS)}`;
              const { status } = await sendFrom(client, port, { path });
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
            }
          }),
        ),
      { headers: ADMIN },
    );
    const endedMs = await databaseNowMs();
    const grewBytes = (await tableBytes()) - bytesBefore;
    recordFigure('audit: 2,000 refusals of 15 KB paths, table growth in bytes', grewBytes);
    recordFigure('audit: 2,000 refusals of 15 KB paths, attack ms', cost.attackMs);
    expect(Object.fromEntries(statuses)).toEqual({ 401: ATTACK_REQUESTS });

    // One event for each minute the attack spanned, by the database's clock, counting them all.
    const events = await eventsOf(client);
    const minutes = Math.floor(endedMs / 60_000) - Math.floor(startedMs / 60_000) + 1;
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.length).toBeLessThanOrEqual(minutes);
    expect(events.reduce((sum, event) => sum + event.count, 0)).toBe(ATTACK_REQUESTS);
    for (const event of events) {
      expect(event).toMatchObject({ principal: 'anonymous', operation: 'getScope' });
      expect([...event.resource]).toHaveLength(605);
    }
    // The old trail grew by 34 MB here (each refusal a row, or the dead row of a failed one).
    expect(grewBytes).toBeLessThan(1024 * 1024);

    // Each refusal (a 15 KB path read, an audit event counted) costs the service about the CPU a
    // GET does, so the GETs of others are not held up; their wall times are kept for the report.
    recordFigure('audit: 2,000 refusals of 15 KB paths, p99 probe GET ms', cost.p99GetMs);
    recordFigure('audit: 2,000 refusals of 15 KB paths, idle probe GET ms', cost.idleGetMs);
    recordFigure('audit: 2,000 refusals of 15 KB paths, service CPU ms', cost.serviceCpuMs);
    recordFigure('audit: 2,000 refusals of 15 KB paths, probe CPU ms', cost.probeCpuMs);
    expect(cost.serviceCpuMs / ATTACK_REQUESTS).toBeLessThanOrEqual(REQUEST_CPU_BUDGET_MS);
    noRecordFailed();
  }, 90_000);
});

/** Old events are deleted in the background, in bounded batches; recent ones stay. */
describe('Audit trail retention (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ AUDIT_RETENTION_DAYS: '30' });
  });
  afterAll(() => t?.close());

  /** Writes `count` events of `resource`, `ageDays` old (and one second more for each). */
  const writeOld = (resource: string, count: number, ageDays: number) =>
    t.sql(
      `INSERT INTO audit_events (at, principal, operation, resource, outcome)
       SELECT now() - make_interval(days => $3) - make_interval(secs => i),
              'admin', 'createScope', $1, 'SUCCEEDED'
         FROM generate_series(1, $2) AS i`,
      [resource, count, ageDays],
    );
  const countOf = async (resource: string): Promise<number> =>
    (
      await t.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_events WHERE resource = $1`,
        [resource],
      )
    )[0].n;

  it('deletes the events older than AUDIT_RETENTION_DAYS, oldest first, and keeps the others', async () => {
    await writeOld('prn::/scope:expired', 2500, 30);
    await writeOld('prn::/scope:kept', 3, 29);
    await t.http.post('/v1/scopes').send({ scopeName: 'fresh' }).expect(201);

    // One batch deletes at most its size, the oldest first.
    const oldest = await t.sql<{ at: Date }>(`SELECT min(at) AS at FROM audit_events`);
    expect(await t.app.get(AuditRepository).deleteExpired(30, 1000)).toBe(1000);
    const after = await t.sql<{ at: Date }>(`SELECT min(at) AS at FROM audit_events`);
    expect(after[0].at.getTime() - oldest[0].at.getTime()).toBe(1000 * 1000);

    // A pass works through the rest in batches, and stops when a batch comes back short.
    expect(await t.app.get(AuditRetention).purge(400)).toBe(1500);
    expect(await countOf('prn::/scope:expired')).toBe(0);
    expect(await countOf('prn::/scope:kept')).toBe(3);
    const fresh = await t.http.get('/v1/audit?resource=prn::/scope:fresh').expect(200);
    expect(fresh.body.auditEvents).toMatchObject([{ operation: 'createScope', count: 1 }]);
    expect(await t.app.get(AuditRetention).purge()).toBe(0);
  });
});
