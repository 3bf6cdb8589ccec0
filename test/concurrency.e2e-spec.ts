import { createScope } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** The database, not the process, keeps concurrent writers correct. */
describe('Concurrent writes (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ DB_POOL_SIZE: '10' });
  });
  afterAll(() => t.close());

  it('lets exactly one of many concurrent creates of a scope win', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.http
          .post('/v1/scopes')
          .send({ scopeName: 'contested' })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
  });

  it('lets exactly one of many concurrent creates of a stream win, with one companion', async () => {
    const scope = await createScope(t.http);
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.http
          .post(`/v1/scopes/${scope}/streams`)
          .send({ streamName: 'contested', streamTags: [`writer-${i}`] })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
    const rows = await t.sql('SELECT name FROM streams WHERE scope_name = $1 ORDER BY name', [
      scope,
    ]);
    expect(rows).toEqual([{ name: '_MARKcontested' }, { name: 'contested' }]);
  });

  it('never leaves a stream in a deleted scope when deletes race with creates', async () => {
    for (let round = 0; round < 5; round++) {
      const scope = await createScope(t.http, `race${round}`);
      const results = await Promise.all([
        ...Array.from({ length: 4 }, (_, i) =>
          t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: `s${i}` }),
        ),
        t.http.delete(`/v1/scopes/${scope}`),
      ]);
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => ![201, 204, 404, 412].includes(s))).toEqual([]);
      const scopeRows = await t.sql('SELECT 1 FROM scopes WHERE name = $1', [scope]);
      const streamRows = await t.sql<{ name: string }>(
        'SELECT name FROM streams WHERE scope_name = $1',
        [scope],
      );
      if (scopeRows.length === 0) expect(streamRows).toEqual([]);
      expect(streamRows.length).toBe(2 * statuses.filter((s) => s === 201).length);
    }
  });

  it('serialises concurrent updates and seals of one stream without errors', async () => {
    const scope = await createScope(t.http);
    await t.http.post(`/v1/scopes/${scope}/streams`).send({ streamName: 'busy' }).expect(201);
    const path = `/v1/scopes/${scope}/streams/busy`;
    const results = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        t.http
          .put(path)
          .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: i + 1 } }),
      ),
      t.http.put(`${path}/state`).send({ streamState: 'SEALED' }),
    ]);
    expect(results.map((r) => r.status).filter((s) => ![200, 412].includes(s))).toEqual([]);
    const sealed = results[results.length - 1];
    expect(sealed.status).toBe(200);
    // Updates that ran after the seal were refused; none is lost halfway: each one answered
    // 200 left its audit record, and the configuration and the segments agree.
    const after = await t.http.get(path).expect(200);
    const final = after.body.scalingPolicy.minSegments as number;
    const applied = results
      .slice(0, 8)
      .filter((r) => r.status === 200)
      .map((r) => r.body.scalingPolicy.minSegments as number);
    const audited = await t.sql<{ min: number }>(
      `SELECT (after->'scalingPolicy'->>'minSegments')::int AS min FROM audit_events
        WHERE operation = 'updateStream' AND resource = $1 ORDER BY id`,
      [`prn::/scope:${scope}/stream:busy`],
    );
    const ascending = (x: number, y: number) => x - y;
    expect(audited.map((row) => row.min).sort(ascending)).toEqual([...applied].sort(ascending));
    expect(final).toBe(audited.length > 0 ? audited[audited.length - 1].min : 1);
    const epochs = await t.sql<{ size: number }>(
      `SELECT (SELECT count(*) FROM stream_segments g
                WHERE g.scope_name = e.scope_name AND g.stream_name = e.stream_name
                  AND int4range(g.created_in, g.sealed_in) @> e.epoch)::int AS size
         FROM stream_epochs e WHERE scope_name = $1 AND stream_name = 'busy' ORDER BY epoch`,
      [scope],
    );
    expect(epochs[epochs.length - 1].size).toBe(final);
    expect(epochs.slice(1).filter((epoch) => !applied.includes(epoch.size))).toEqual([]);
  });
});
