import { AuditRepository } from '../src/audit/audit.repository';
import { AuditRetention } from '../src/audit/audit-retention.service';
import { startTestApp, TestApp } from './support/test-app';

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
