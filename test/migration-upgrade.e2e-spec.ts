import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { migrations } from '../migrations';
import { typeOrmOptions } from '../src/database/typeorm-options';
import { brokenInvariants } from './support/invariants';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

/**
 * What the API of each earlier release point wrote, as SQL: a release point is the set of
 * migrations that existed then. A database of a later point holds the rows of the earlier ones.
 */
const FILLS: Record<string, string[]> = {
  // Scopes and streams, each user stream with its _MARK companion.
  ScopesAndStreams1763800000000: [
    `INSERT INTO scopes (name) VALUES ('old')`,
    `INSERT INTO streams (scope_name, name, owner_stream, state, scaling_type, min_segments,
        target_rate, scale_factor, retention_type, retention_min, retention_max, tags,
        rollover_size_bytes, timestamp_aggregation_timeout)
     VALUES ('old', 'orders', NULL, 'ACTIVE', 'BY_RATE_IN_EVENTS_PER_SEC', 2, 100, 3,
             'LIMITED_DAYS', 1440, 4320, '{billing,eu}', 1024, 7),
            ('old', '_MARKorders', 'orders', 'ACTIVE', 'FIXED_NUM_SEGMENTS', 1, NULL, NULL,
             NULL, NULL, NULL, '{}', 0, 0),
            ('old', 'archive', NULL, 'SEALED', 'FIXED_NUM_SEGMENTS', 3, NULL, NULL,
             'LIMITED_SIZE_MB', 10, NULL, '{}', 0, 0),
            ('old', '_MARKarchive', 'archive', 'SEALED', 'FIXED_NUM_SEGMENTS', 1, NULL, NULL,
             NULL, NULL, NULL, '{}', 0, 0)`,
  ],
  // A stream with its epoch 0 written at creation, and a reader group with its _RG stream.
  EpochsAndReaderGroups1763900000000: [
    `INSERT INTO scopes (name) VALUES ('mid')`,
    `INSERT INTO streams (scope_name, name, owner_stream, owner_reader_group, scaling_type, min_segments)
     VALUES ('mid', 'events', NULL, NULL, 'FIXED_NUM_SEGMENTS', 2),
            ('mid', '_MARKevents', 'events', NULL, 'FIXED_NUM_SEGMENTS', 1)`,
    `INSERT INTO reader_groups (scope_name, name) VALUES ('mid', 'readers')`,
    `INSERT INTO streams (scope_name, name, owner_stream, owner_reader_group, scaling_type,
        min_segments, rollover_size_bytes)
     VALUES ('mid', '_RGreaders', NULL, 'readers', 'FIXED_NUM_SEGMENTS', 1, 4194304),
            ('mid', '_MARK_RGreaders', '_RGreaders', NULL, 'FIXED_NUM_SEGMENTS', 1, 0)`,
    `INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at, active_segments)
     SELECT 'mid', name, 0, 1700000000000, ARRAY(SELECT generate_series(0, min_segments - 1))
       FROM streams WHERE scope_name = 'mid'`,
    `INSERT INTO stream_segments (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
     SELECT 'mid', s.name, i, 0, 1700000000000, i::float8 / s.min_segments, (i + 1)::float8 / s.min_segments
       FROM streams s, generate_series(0, s.min_segments - 1) AS i WHERE s.scope_name = 'mid'`,
    `INSERT INTO segment_numbering (scope_name, stream_name, next_number)
     SELECT 'mid', name, min_segments FROM streams WHERE scope_name = 'mid'`,
    `INSERT INTO reader_group_streams (scope_name, reader_group, position, stream_scope, stream_name)
     VALUES ('mid', 'readers', 0, 'mid', 'events'), ('mid', 'readers', 1, 'old', 'orders')`,
    `INSERT INTO reader_group_readers (scope_name, reader_group, reader_id) VALUES ('mid', 'readers', 'r1')`,
  ],
  // A stream rescaled twice by PUT (2, then 3, then 1 segment), each epoch listing its segments.
  ReaderGroupVersionOnStreamDelete1764400000000: [
    `INSERT INTO streams (scope_name, name, owner_stream, scaling_type, min_segments)
     VALUES ('mid', 'scaled', NULL, 'FIXED_NUM_SEGMENTS', 1),
            ('mid', '_MARKscaled', 'scaled', 'FIXED_NUM_SEGMENTS', 1)`,
    `INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at, active_segments)
     VALUES ('mid', 'scaled', 0, 1700000001000, '{0,1}'), ('mid', 'scaled', 1, 1700000002000, '{2,3,4}'),
            ('mid', 'scaled', 2, 1700000003000, '{5}'), ('mid', '_MARKscaled', 0, 1700000001000, '{0}')`,
    `INSERT INTO stream_segments
       (scope_name, stream_name, number, created_in, sealed_in, start_time, key_start, key_end)
     VALUES ('mid', 'scaled', 0, 0, 1, 1700000001000, 0, 0.5),
            ('mid', 'scaled', 1, 0, 1, 1700000001000, 0.5, 1),
            ('mid', 'scaled', 2, 1, 2, 1700000002000, 0, 1::float8 / 3),
            ('mid', 'scaled', 3, 1, 2, 1700000002000, 1::float8 / 3, 2::float8 / 3),
            ('mid', 'scaled', 4, 1, 2, 1700000002000, 2::float8 / 3, 1),
            ('mid', 'scaled', 5, 2, NULL, 1700000003000, 0, 1),
            ('mid', '_MARKscaled', 0, 0, NULL, 1700000001000, 0, 1)`,
    `INSERT INTO segment_numbering (scope_name, stream_name, next_number)
     VALUES ('mid', 'scaled', 6), ('mid', '_MARKscaled', 1)`,
  ],
  // Policies set before their counts were kept: the upgrade counts what each limits.
  ScopePolicies1764800000000: [
    `INSERT INTO scope_policies (scope_name, policy)
     VALUES ('old', '{"maxStreams": 10}'), ('mid', '{"maxActiveSegments": 50}')`,
  ],
};

/** The release point from which the database holds the stream `mid/scaled`. */
const SCALED_FROM =
  migrations.findIndex((m) => m.name === 'ReaderGroupVersionOnStreamDelete1764400000000') + 1;

/**
 * Columns a later migration drops, each replaced by what its own test below checks: an epoch's
 * list of active segments is read from the segments' lives since SegmentLives, and a policy's
 * counts live in scope_policy_counts since PolicyCountsAtCommit.
 */
const DROPPED: Record<string, string[]> = {
  stream_epochs: ['active_segments'],
  scope_policies: ['user_streams', 'active_segments'],
};

const TABLES = [
  'scopes',
  'streams',
  'stream_epochs',
  'stream_segments',
  'segment_numbering',
  'reader_groups',
  'reader_group_streams',
  'reader_group_readers',
  'scope_policies',
];

/** Every row of every table that exists, as text, so a later comparison sees any change. */
async function snapshot(client: Client): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  for (const table of TABLES) {
    const exists = await client.query('SELECT to_regclass($1) AS t', [table]);
    if (exists.rows[0].t === null) continue;
    const { rows: columns } = await client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
      [table],
    );
    const kept = columns.map((c) => c.name).filter((c) => !DROPPED[table]?.includes(c));
    const { rows: found } = await client.query<{ row: string }>(
      `SELECT ROW(${kept.map((c) => `t."${c}"`).join(', ')})::text AS row FROM ${table} t ORDER BY 1`,
    );
    rows[table] = found.map((r) => r.row);
  }
  return rows;
}

/** The release point from which the database holds policies. */
const POLICIES_FROM = migrations.findIndex((m) => m.name === 'ScopePolicies1764800000000') + 1;

const earlierPoints = migrations.slice(0, -1).map((_, i) => i + 1);

/** Runs `work` with a data source that knows the migrations of release point `point`. */
async function atReleasePoint(
  url: string,
  point: number,
  work: (source: DataSource) => Promise<void>,
): Promise<void> {
  const source = await new DataSource({
    ...typeOrmOptions({ url, poolSize: 1, statementTimeoutMs: 10_000, connectTimeoutMs: 3000 }),
    migrations: migrations.slice(0, point),
  }).initialize();
  try {
    await work(source);
  } finally {
    await source.destroy();
  }
}

describe.each(earlierPoints)('Upgrading a database of release point %i to head (e2e)', (point) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let client: Client;
  let before: Record<string, string[]>;
  /** Right after the upgrade, before any test changed anything. */
  let after: Record<string, string[]>;
  let t: TestApp;

  beforeAll(async () => {
    // The old releases' migrations run outside an app: their log lines would go to the console.
    Logger.overrideLogger(false);
    database = await createTestDatabase();
    // As it happened: each release's migrations ran, then that release's API wrote its rows.
    for (let released = 1; released <= point; released++) {
      await atReleasePoint(database.url, released, async (source) => {
        await source.runMigrations({ transaction: 'each' });
        for (const sql of FILLS[migrations[released - 1].name] ?? []) await source.query(sql);
      });
    }
    client = new Client({ connectionString: database.url });
    await client.connect();
    before = await snapshot(client);
    t = await startTestApp({}, () => database.url);
    after = await snapshot(client);
  });
  afterAll(async () => {
    await t?.close();
    await client?.end();
    await database?.drop();
  });

  it('starts from the rows of that release point', () => {
    const scopes = before.scopes.map((row) => row.slice(1, row.indexOf(',')));
    expect(scopes).toEqual(point >= 2 ? ['mid', 'old'] : ['old']);
    const tables = TABLES.filter((table) => table !== 'scope_policies' || point >= POLICIES_FROM);
    expect(Object.keys(before)).toEqual(point >= 2 ? tables : ['scopes', 'streams']);
  });

  it('keeps every row of the earlier schema, and applies every later migration', async () => {
    for (const [table, rows] of Object.entries(before)) {
      // Columns added later append to a row's text; what was there stays as it was.
      const kept = after[table].map((row) => row.slice(0, -1));
      expect([table, rows.map((row) => kept.some((k) => k.startsWith(row.slice(0, -1))))]).toEqual([
        table,
        rows.map(() => true),
      ]);
      expect([table, after[table].length]).toEqual([table, rows.length]);
    }
    const { rows } = await client.query<{ name: string }>(
      'SELECT name FROM tributary_migrations ORDER BY id',
    );
    expect(rows.map((row) => row.name)).toEqual(migrations.map((m) => m.name));
    expect(
      await brokenInvariants(
        async (sql) => (await client.query<Record<string, unknown>>(sql)).rows,
      ),
    ).toEqual([]);
  });

  it('counts what each policy set before it limits', async () => {
    const counts = () =>
      t.sql(`SELECT scope_name, user_streams, active_segments FROM scope_policy_counts ORDER BY 1`);
    expect(await counts()).toEqual(
      point >= POLICIES_FROM
        ? [
            { scope_name: 'mid', user_streams: 2, active_segments: 3 },
            // orders' two segments; archive is sealed.
            { scope_name: 'old', user_streams: 2, active_segments: 2 },
          ]
        : [],
    );
  });

  it('serves and changes the old streams through the API', async () => {
    const orders = await t.http.get('/v1/scopes/old/streams/orders').expect(200);
    expect(orders.body).toEqual({
      scopeName: 'old',
      streamName: 'orders',
      scalingPolicy: {
        type: 'BY_RATE_IN_EVENTS_PER_SEC',
        targetRate: 100,
        scaleFactor: 3,
        minSegments: 2,
      },
      retentionPolicy: {
        type: 'LIMITED_DAYS',
        value: 1,
        timeBasedRetention: { days: 1, hours: 0, minutes: 0 },
        maxValue: 3,
        maxTimeBasedRetention: { days: 3, hours: 0, minutes: 0 },
      },
      tags: ['billing', 'eu'],
      rolloverSizeBytes: 1024,
      timestampAggregationTimeout: 7,
    });
    const listed = await t.http.get('/v1/scopes/old/streams').expect(200);
    expect(listed.body.streams.map((s: { streamName: string }) => s.streamName)).toEqual([
      'archive',
      'orders',
    ]);
    const events = await t.http
      .get('/v1/scopes/old/streams/orders/scaling-events')
      .query({ from: 0, to: Number.MAX_SAFE_INTEGER })
      .expect(200);
    expect(events.body.scalingEvents).toHaveLength(1);
    expect(events.body.scalingEvents[0].segmentList).toHaveLength(2);

    // Rows from before versions existed start at version 1, as new ones do.
    expect(orders.headers.etag).toMatch(/^"\d+\.1"$/);

    // ... and changes them as it would new ones, conditions included.
    const updated = await t.http
      .put('/v1/scopes/old/streams/orders')
      .set('If-Match', orders.headers.etag)
      .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 } })
      .expect(200);
    expect(updated.headers.etag).toBe(orders.headers.etag.replace('.1"', '.2"'));
    const rescaled = await t.http
      .get('/v1/scopes/old/streams/orders/scaling-events')
      .query({ from: 0, to: Number.MAX_SAFE_INTEGER })
      .expect(200);
    expect(
      rescaled.body.scalingEvents.map((e: { segmentList: unknown[] }) => e.segmentList.length),
    ).toEqual([2, 4]);
    await t.http.delete('/v1/scopes/old/streams/archive').expect(204);
  });

  if (point >= SCALED_FROM) {
    it('answers the segments each epoch listed, and scales the old stream by hand', async () => {
      const listed = [[0, 1], [2, 3, 4], [5]];
      for (const [epoch, numbers] of listed.entries()) {
        const at = 1700000001000 + epoch * 1000;
        const res = await t.http.get(`/v1/scopes/mid/streams/scaled/segments?at=${at}`).expect(200);
        expect([
          at,
          res.body.epoch,
          res.body.segments.map((s: { number: number }) => s.number),
        ]).toEqual([at, epoch, numbers]);
      }
      const split = await t.http
        .post('/v1/scopes/mid/streams/scaled/scale')
        .send({
          sealedSegments: [5],
          newRanges: [
            { keyStart: 0, keyEnd: 0.5 },
            { keyStart: 0.5, keyEnd: 1 },
          ],
        })
        .expect(200);
      expect(split.body.newSegments.map((s: { number: number }) => s.number)).toEqual([6, 7]);
      const life = await t.http.get('/v1/scopes/mid/streams/scaled/segments/3').expect(200);
      expect(life.body).toMatchObject({ predecessors: [0, 1], successors: [5], sealedInEpoch: 2 });
    });
  }

  if (point >= 2) {
    it('serves the old reader group through the API', async () => {
      const group = await t.http.get('/v1/scopes/mid/readergroups/readers').expect(200);
      expect(group.body).toEqual({
        scopeName: 'mid',
        readerGroupName: 'readers',
        streamList: ['mid/events', 'old/orders'],
        onlineReaderIds: ['r1'],
      });
      await t.http.delete('/v1/scopes/mid/readergroups/readers/readers/r1').expect(204);
    });
  }
});

describe('Migration SegmentLives, which drops the lists of active segments (e2e)', () => {
  const point = migrations.findIndex((m) => m.name === 'SegmentLives1764500000000');
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const lists = `SELECT stream_name, epoch, active_segments FROM stream_epochs
                  WHERE scope_name = 'mid' ORDER BY 1, 2`;

  beforeEach(async () => {
    Logger.overrideLogger(false);
    database = await createTestDatabase();
    await atReleasePoint(database.url, point, async (source) => {
      await source.runMigrations({ transaction: 'each' });
      await source.query(`INSERT INTO scopes (name) VALUES ('mid')`);
      for (const sql of FILLS.ReaderGroupVersionOnStreamDelete1764400000000)
        await source.query(sql);
    });
  });
  afterEach(() => database.drop());

  it('refuses to drop lists that differ from the segments, and changes nothing', async () => {
    let listed: unknown[] = [];
    await atReleasePoint(database.url, point, async (source) => {
      await source.query(
        `UPDATE stream_epochs SET active_segments = '{2,3}' WHERE stream_name = 'scaled' AND epoch = 1`,
      );
      listed = await source.query(lists);
    });
    await atReleasePoint(database.url, point + 1, async (source) => {
      await expect(source.runMigrations({ transaction: 'each' })).rejects.toThrow(
        "epochs whose list of active segments differs from their segments' lives: " +
          '[{"scope_name":"mid","stream_name":"scaled","epoch":1}]',
      );
      expect(await source.query(lists)).toEqual(listed);
      expect(await source.showMigrations()).toBe(true);
    });
  });

  it('writes the lists back as they were when it is reverted', async () => {
    let listed: unknown[] = [];
    await atReleasePoint(database.url, point, async (source) => {
      listed = await source.query(lists);
    });
    await atReleasePoint(database.url, point + 1, async (source) => {
      await source.runMigrations({ transaction: 'each' });
      const index = `SELECT to_regclass('stream_segments_life_idx')::text AS name`;
      expect(await source.query(index)).toEqual([{ name: 'stream_segments_life_idx' }]);
      await source.undoLastMigration({ transaction: 'each' });
      expect(await source.query(lists)).toEqual(listed);
      expect(await source.query(index)).toEqual([{ name: null }]);
      expect(listed).toHaveLength(4);
    });
  });
});

describe('Migration AuditDenialCounts, which counts the 401s of a client address (e2e)', () => {
  const point = migrations.findIndex((m) => m.name === 'AuditDenialCounts1764710000000');
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const rows = `SELECT principal, client_address, resource, outcome FROM audit_events ORDER BY id`;

  beforeEach(async () => {
    Logger.overrideLogger(false);
    database = await createTestDatabase();
    await atReleasePoint(database.url, point, async (source) => {
      await source.runMigrations({ transaction: 'each' });
      // As the API wrote them: a change, and two refusals of one client, a row each.
      await source.query(
        `INSERT INTO audit_events (principal, client_address, operation, resource, outcome)
         VALUES ('admin', '10.0.0.1', 'createScope', 'prn::/scope:old', 'SUCCEEDED'),
                ('anonymous', '10.0.0.2', 'getScope', 'prn::/scope:old', 'DENIED'),
                ('anonymous', '10.0.0.2', 'listScopes', 'prn::/', 'DENIED')`,
      );
    });
  });
  afterEach(() => database.drop());

  it('reads each earlier event as one request', async () => {
    const t = await startTestApp({}, () => database.url);
    try {
      const res = await t.http.get('/v1/audit').expect(200);
      const events = (res.body as { auditEvents: Array<{ operation: string; count: number }> })
        .auditEvents;
      expect(events.map(({ operation, count }) => ({ operation, count }))).toEqual([
        { operation: 'listScopes', count: 1 },
        { operation: 'getScope', count: 1 },
        { operation: 'createScope', count: 1 },
      ]);
    } finally {
      await t.close();
    }
  });

  it('keeps every event when it is reverted', async () => {
    let listed: unknown[] = [];
    await atReleasePoint(database.url, point, async (source) => {
      listed = await source.query(rows);
    });
    await atReleasePoint(database.url, point + 1, async (source) => {
      await source.runMigrations({ transaction: 'each' });
      await source.undoLastMigration({ transaction: 'each' });
      expect(await source.query(rows)).toEqual(listed);
      const columns = `SELECT count(*)::int AS n FROM information_schema.columns
                        WHERE table_name = 'audit_events' AND column_name = 'request_count'`;
      expect(await source.query(columns)).toEqual([{ n: 0 }]);
    });
    expect(listed).toHaveLength(3);
  });
});

describe("Migration PolicyCountsAtCommit, which moves a policy's counts to a row of their own (e2e)", () => {
  const point = migrations.findIndex((m) => m.name === 'PolicyCountsAtCommit1765100000000');
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const inPlace = `SELECT scope_name, user_streams, active_segments FROM scope_policies`;

  beforeEach(async () => {
    Logger.overrideLogger(false);
    database = await createTestDatabase();
    await atReleasePoint(database.url, point, async (source) => {
      await source.runMigrations({ transaction: 'each' });
      await source.query(`INSERT INTO scopes (name) VALUES ('old')`);
      await source.query(
        `INSERT INTO scope_policies (scope_name, policy, user_streams, active_segments)
         VALUES ('old', '{"maxStreams": 10}', 2, 3)`,
      );
    });
  });
  afterEach(() => database.drop());

  it('moves the counts, and writes them back to the policy, moved in place again, when reverted', async () => {
    await atReleasePoint(database.url, point + 1, async (source) => {
      await source.runMigrations({ transaction: 'each' });
      expect(await source.query(`SELECT * FROM scope_policy_counts`)).toEqual([
        { scope_name: 'old', user_streams: 2, active_segments: 3 },
      ]);
      await source.undoLastMigration({ transaction: 'each' });
      expect(await source.query(inPlace)).toEqual([
        { scope_name: 'old', user_streams: 2, active_segments: 3 },
      ]);
      const tables = `SELECT to_regclass('scope_policy_counts') AS counts,
                             to_regclass('scope_policy_count_changes') AS notes`;
      expect(await source.query(tables)).toEqual([{ counts: null, notes: null }]);
      await source.query(
        `SELECT scope_policy_counts_move(ARRAY['old'], ARRAY[1::bigint], ARRAY[2::bigint])`,
      );
      expect(await source.query(inPlace)).toEqual([
        { scope_name: 'old', user_streams: 3, active_segments: 5 },
      ]);
    });
  });
});
