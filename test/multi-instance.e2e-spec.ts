import { Client } from 'pg';
import { SWEEP_LOCK } from '../src/autoscale/silence-sweep.service';
import { ApiClient } from './support/api-client';
import { eventually } from './support/eventually';
import { brokenInvariants } from './support/invariants';
import { ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';
import { recordFigure, SOAK_TEST_TIMEOUT_MS, soakScale } from './support/figures';

jest.setTimeout(SOAK_TEST_TIMEOUT_MS);

const ROUNDS = soakScale(3, 40);
const CONTENDERS = 16;

/**
 * Two service processes on one database, hit in parallel. The database, not either
 * process, keeps the data right.
 */
describe('Two instances on one database (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let services: ServiceProcess[];
  let a: ApiClient;
  let b: ApiClient;
  let sql: Client;
  let raced = 0;

  /** Alternates between the two instances. */
  const either = (i: number): ApiClient => (i % 2 === 0 ? a : b);

  beforeAll(async () => {
    database = await createTestDatabase();
    services = await ServiceProcess.instances(database.url, 2, {
      // Scaling by load without mutes (a segment just opened may scale), and quick silence.
      AUTOSCALE_MUTE_MS: '0',
      AUTOSCALE_SILENCE_MS: '1000',
      AUTOSCALE_SWEEP_MS: '200',
    });
    [a, b] = services.map((service) => new ApiClient(service.baseUrl));
    sql = new Client({ connectionString: database.url });
    await sql.connect();
  });
  afterEach(async () => {
    expect([...a.serverErrors(), ...b.serverErrors()]).toEqual([]);
    expect(
      await brokenInvariants(async (text) => (await sql.query<Record<string, unknown>>(text)).rows),
    ).toEqual([]);
  });
  afterAll(async () => {
    recordFigure('instances', services.length);
    recordFigure('operations raced across two instances', raced);
    await sql.end();
    await Promise.all(services.map((service) => service.stop()));
    await database.drop();
  });

  it('lets exactly one of N concurrent creates of a scope or a stream win', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const scope = `contested-${round}`;
      const scopes = await Promise.all(
        Array.from({ length: CONTENDERS }, (_, i) =>
          either(i).call('POST', '/v1/scopes', { scopeName: scope }),
        ),
      );
      expect(scopes.map((r) => r.status).sort((x, y) => x - y)).toEqual([
        201,
        ...Array(CONTENDERS - 1).fill(409),
      ]);
      const streams = await Promise.all(
        Array.from({ length: CONTENDERS }, (_, i) =>
          either(i).call('POST', `/v1/scopes/${scope}/streams`, {
            streamName: 'contested',
            scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 + (i % 4) },
          }),
        ),
      );
      expect(streams.map((r) => r.status).sort((x, y) => x - y)).toEqual([
        201,
        ...Array(CONTENDERS - 1).fill(409),
      ]);
      raced += 2 * CONTENDERS;
    }
  });

  it('never leaves a stream in a missing scope when a scope delete races stream creates', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const scope = `racing-${round}`;
      expect((await a.call('POST', '/v1/scopes', { scopeName: scope })).status).toBe(201);
      const creates = Array.from({ length: 6 }, (_, i) =>
        either(i).call('POST', `/v1/scopes/${scope}/streams`, { streamName: `s${i}` }),
      );
      const deleted = b.call('DELETE', `/v1/scopes/${scope}`);
      const created = await Promise.all(creates);
      const deleteStatus = (await deleted).status;
      raced += creates.length + 1;

      expect([204, 412]).toContain(deleteStatus);
      const acknowledged = created.flatMap((r, i) => (r.status === 201 ? [`s${i}`] : []));
      expect(created.map((r) => r.status).filter((s) => ![201, 404].includes(s))).toEqual([]);
      const { rows } = await sql.query<{ name: string }>(
        `SELECT name FROM streams WHERE scope_name = $1 AND owner_stream IS NULL ORDER BY name`,
        [scope],
      );
      if (deleteStatus === 204) {
        expect(acknowledged).toEqual([]);
        expect(rows).toEqual([]);
        expect((await a.call('GET', `/v1/scopes/${scope}`)).status).toBe(404);
      } else {
        expect(rows.map((row) => row.name)).toEqual(acknowledged);
      }
    }
  });

  it('keeps one stream history consistent under racing updates, seals and deletes', async () => {
    expect((await a.call('POST', '/v1/scopes', { scopeName: 'history' })).status).toBe(201);
    for (let round = 0; round < ROUNDS; round++) {
      const path = `/v1/scopes/history/streams/s${round}`;
      const created = await a.call('POST', '/v1/scopes/history/streams', {
        streamName: `s${round}`,
      });
      expect(created.status).toBe(201);
      const calls = [
        ...Array.from({ length: 8 }, (_, i) =>
          either(i).call('PUT', path, {
            scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 + ((i + round) % 5) },
          }),
        ),
        b.call('PUT', `${path}/state`, { streamState: 'SEALED' }),
        a.call('DELETE', path),
      ];
      const results = await Promise.all(calls);
      raced += calls.length;
      const [seal, remove] = results.slice(-2).map((r) => r.status);
      expect(
        results
          .slice(0, 8)
          .map((r) => r.status)
          .filter((s) => ![200, 404, 412].includes(s)),
      ).toEqual([]);
      expect([200, 404]).toContain(seal);
      expect([204, 404, 412]).toContain(remove);

      const exists = (await b.call('GET', path)).status === 200;
      const { rows } = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM stream_epochs WHERE scope_name = 'history' AND stream_name = $1`,
        [`s${round}`],
      );
      if (!exists) {
        expect(remove).toBe(204);
        expect(rows[0].n).toBe(0);
        continue;
      }
      const events = await a.call('GET', `${path}/scaling-events?from=0&to=${Date.now() + 1000}`);
      const history = (
        events.body as {
          scalingEvents: Array<{ timestamp: number; segmentList: Array<{ number: number }> }>;
        }
      ).scalingEvents;
      expect(history.length).toBe(rows[0].n);
      const times = history.map((event) => event.timestamp);
      expect(times).toEqual([...times].sort((x, y) => x - y));
      expect(new Set(times).size).toBe(times.length);
    }
  });

  it('never leaves a reader group in a missing scope when writes race a scope delete', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const scope = `groups-${round}`;
      expect((await a.call('POST', '/v1/scopes', { scopeName: scope })).status).toBe(201);
      expect(
        (await a.call('POST', `/v1/scopes/${scope}/streams`, { streamName: 'input' })).status,
      ).toBe(201);
      expect(
        (await a.call('PUT', `/v1/scopes/${scope}/streams/input/state`, { streamState: 'SEALED' }))
          .status,
      ).toBe(200);

      // One side empties and deletes the scope while the other creates groups and readers.
      const teardown = (async () => {
        const stream = await b.call('DELETE', `/v1/scopes/${scope}/streams/input`);
        const deleted = await b.call('DELETE', `/v1/scopes/${scope}`);
        return [stream.status, deleted.status];
      })();
      const writes = await Promise.all(
        Array.from({ length: 4 }, async (_, i) => {
          const group = await either(i).call('POST', `/v1/scopes/${scope}/readergroups`, {
            readerGroupName: `g${i}`,
            streams: ['input'],
          });
          const reader = await either(i + 1).call(
            'PUT',
            `/v1/scopes/${scope}/readergroups/g${i}/readers/r${i}`,
          );
          return [group.status, reader.status];
        }),
      );
      const [streamDelete, scopeDelete] = await teardown;
      raced += writes.length * 2 + 2;

      expect([204, 404]).toContain(streamDelete);
      expect([204, 412]).toContain(scopeDelete);
      writes.forEach(([group, reader]) => {
        expect([201, 404]).toContain(group);
        expect([204, 404]).toContain(reader);
      });
      const groups = await sql.query(`SELECT name FROM reader_groups WHERE scope_name = $1`, [
        scope,
      ]);
      if (scopeDelete === 204) {
        expect(groups.rows).toEqual([]);
        expect(writes.map(([group]) => group)).toEqual(writes.map(() => 404));
      } else {
        expect(groups.rows).toHaveLength(writes.filter(([group]) => group === 201).length);
      }
    }
  });

  it("holds a scope policy's limits across instances: racing creates and scales never pass them", async () => {
    const scope = 'policed-race';
    await a.call('POST', '/v1/scopes', { scopeName: scope });
    const policy = await a.call('PUT', `/v1/scopes/${scope}/policy`, {
      maxStreams: 5,
      maxActiveSegments: 8,
    });
    expect(policy.status).toBe(200);
    const creates = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        either(i).call('POST', `/v1/scopes/${scope}/streams`, { streamName: `s${i}` }),
      ),
    );
    expect(creates.map((r) => r.status).sort((x, y) => x - y)).toEqual([
      ...Array(5).fill(201),
      ...Array(15).fill(422),
    ]);
    const created = creates.flatMap((r, i) => (r.status === 201 ? [`s${i}`] : []));
    raced += creates.length;

    // Five streams of one segment each: each split adds one, and only three may.
    const split = {
      sealedSegments: [0],
      newRanges: [
        { keyStart: 0, keyEnd: 0.5 },
        { keyStart: 0.5, keyEnd: 1 },
      ],
    };
    const scales = await Promise.all(
      created.map((name, i) =>
        either(i).call('POST', `/v1/scopes/${scope}/streams/${name}/scale`, split),
      ),
    );
    expect(scales.map((r) => r.status).sort((x, y) => x - y)).toEqual([200, 200, 200, 422, 422]);
    raced += scales.length;
    const active = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stream_segments WHERE scope_name = $1 AND sealed_in IS NULL
          AND stream_name NOT LIKE '\\_%'`,
      [scope],
    );
    expect(active.rows[0].n).toBe(8);
  });

  it('makes one scale of reports for the same segment that two instances take at once', async () => {
    const scope = 'loaded-race';
    await a.call('POST', '/v1/scopes', { scopeName: scope });
    const streams = Array.from({ length: ROUNDS }, (_, i) => `s${i}`);
    for (const name of streams) {
      await a.call('POST', `/v1/scopes/${scope}/streams`, {
        streamName: name,
        scalingPolicy: RATE_POLICY,
      });
    }
    const hot = { reports: [{ ...report(0, 30), twoMinuteRate: 620 }] };
    const answers = await Promise.all(
      streams.flatMap((name) =>
        Array.from({ length: 4 }, (_, i) =>
          either(i).call('POST', `/v1/scopes/${scope}/streams/${name}/load`, hot),
        ),
      ),
    );
    raced += answers.length;
    const outcomes = answers.map((r) => {
      expect(r.status).toBe(200);
      return (r.body as { results: { outcome: string }[] }).results[0].outcome;
    });
    // Per stream: one split; the others find its segment sealed.
    expect(outcomes.filter((o) => o === 'scaledUp')).toHaveLength(streams.length);
    expect(outcomes.filter((o) => o === 'ignored')).toHaveLength(3 * streams.length);
    const audited = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE operation = 'reportLoad'
          AND resource LIKE $1`,
      [`prn::/scope:${scope}/%`],
    );
    expect(audited.rows[0].n).toBe(streams.length);
  });

  it('sweeps silence on one instance at a time: none while another holds the lock', async () => {
    const scope = 'silent-sweep';
    await a.call('POST', '/v1/scopes', { scopeName: scope });
    await a.call('POST', `/v1/scopes/${scope}/streams`, {
      streamName: 'quiet',
      scalingPolicy: { ...RATE_POLICY, minSegments: 4 },
    });
    await a.call('PUT', `/v1/scopes/${scope}/streams/quiet`, {
      scalingPolicy: { ...RATE_POLICY, minSegments: 1 },
    });
    const activeCount = async () =>
      (
        await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM stream_segments
            WHERE scope_name = $1 AND stream_name = 'quiet' AND sealed_in IS NULL`,
          [scope],
        )
      ).rows[0].n;
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      // In a transaction, as a sweep holds it: a pooler keeps the transaction on its connection.
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [SWEEP_LOCK]);
      // A report below every threshold makes the stream one the sweeps watch.
      const taken = await b.call('POST', `/v1/scopes/${scope}/streams/quiet/load`, {
        reports: [report(0, 30)],
      });
      expect(taken.status).toBe(200);
      // Silent for a second and more, swept every 200 ms by both: held, none scales.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(await activeCount()).toBe(4);
    } finally {
      await holder.end();
    }
    expect(await eventually(activeCount, 1, { attempts: 100 })).toBe(1);
    const rows = await sql.query<{ principal: string; sealed: number[] }>(
      `SELECT principal, after->'sealedSegments' AS sealed FROM audit_events
        WHERE operation = 'reportLoad' AND resource = $1 ORDER BY id`,
      [`prn::/scope:${scope}/stream:quiet`],
    );
    expect(rows.rows.every((r) => r.principal === 'system:autoscale')).toBe(true);
    // Each segment sealed once: no two sweeps scaled the same segments.
    const sealed = rows.rows.flatMap((r) => r.sealed);
    expect(new Set(sealed).size).toBe(sealed.length);
  });
});

const RATE_POLICY = {
  type: 'BY_RATE_IN_EVENTS_PER_SEC',
  targetRate: 100,
  scaleFactor: 2,
  minSegments: 1,
};

/** A report of `segment` measured for `minutes`, below every threshold. */
const report = (segment: number, minutes: number) => ({
  segment,
  since: Date.now() - minutes * 60_000,
  twoMinuteRate: 60,
  fiveMinuteRate: 60,
  tenMinuteRate: 60,
  twentyMinuteRate: 60,
});
