/**
 * Why migration SegmentLives dropped the list of active segments kept on every epoch: the
 * database's own cost of scaling one segment of a stream of 1,000 active segments, and of
 * reading a page of its scaling events, with the list (the schema before the migration, written
 * as the service wrote it then) and without it (the segments' lives), on the same server.
 *
 *   npm run bench:segment-storage [-- --scales 2000]
 *
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * where it may create two databases `tributary_bench_*`, dropped at the end. Each scale runs in
 * its own transaction on one connection, whose backend's CPU time is read from /proc.
 */
import { Logger } from '@nestjs/common';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { migrations } from '../migrations';
import { typeOrmOptions } from '../src/database/typeorm-options';
import { BenchDatabase, seedManualScales } from './support/database';
import { cpuSeconds } from './support/memory';

const { values: args } = parseArgs({ options: { scales: { type: 'string', default: '2000' } } });
const SCALES = Number(args.scales);
const SEGMENTS = 1000;
const SCOPE = 'storage';
const STREAM = 'wide';
const PAGE = 100;

type Schema = 'lists' | 'lives';

/** The last migration before SegmentLives: the schema with a list on every epoch. */
const LISTS_POINT = migrations.findIndex((m) => m.name === 'SegmentLives1764500000000');

async function migrated(url: string, schema: Schema): Promise<void> {
  const source = await new DataSource({
    ...typeOrmOptions({ url, poolSize: 1, statementTimeoutMs: 600_000, connectTimeoutMs: 5000 }),
    migrations: schema === 'lists' ? migrations.slice(0, LISTS_POINT) : migrations,
  }).initialize();
  try {
    await source.runMigrations({ transaction: 'each' });
  } finally {
    await source.destroy();
  }
}

/** A stream of 1,000 equal segments with a one-epoch history, as either schema holds it. */
async function seed(sql: Client, schema: Schema): Promise<void> {
  if (schema === 'lives') {
    await seedManualScales(sql, SCOPE, [STREAM], SEGMENTS, 1, 0);
    return;
  }
  // The seed writes the schema of today; give the old one its list, as the service wrote it.
  await sql.query(`ALTER TABLE stream_epochs ALTER COLUMN active_segments DROP NOT NULL`);
  await seedManualScales(sql, SCOPE, [STREAM], SEGMENTS, 1, 0);
  await sql.query(
    `UPDATE stream_epochs e SET active_segments = ARRAY(
       SELECT number FROM stream_segments g WHERE g.scope_name = e.scope_name
          AND g.stream_name = e.stream_name AND g.sealed_in IS NULL ORDER BY number)`,
  );
  await sql.query(`ALTER TABLE stream_epochs ALTER COLUMN active_segments SET NOT NULL`);
}

/**
 * Scale `i`: seal the segment at position i % 1,000 (number `sealed`) and open `opened` over its
 * keys in epoch i + 1. With lists, the new epoch's list is the previous one with the number
 * replaced: what the service wrote before, a list of 1,000 numbers per epoch.
 */
async function scale(sql: Client, schema: Schema, i: number, active: number[]): Promise<void> {
  const position = i % SEGMENTS;
  const [sealed, opened, epoch] = [active[position], SEGMENTS + i, i + 1];
  active[position] = opened;
  const keys = [position / SEGMENTS, (position + 1) / SEGMENTS];
  await sql.query('BEGIN');
  await sql.query(
    `UPDATE stream_segments SET sealed_in = $3 WHERE scope_name = $1 AND stream_name = $2 AND number = $4`,
    [SCOPE, STREAM, epoch, sealed],
  );
  await sql.query(
    schema === 'lists'
      ? `INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at, active_segments)
         VALUES ($1, $2, $3::int, $3::int, $4::int[])`
      : `INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at) VALUES ($1, $2, $3::int, $3::int)`,
    schema === 'lists' ? [SCOPE, STREAM, epoch, active] : [SCOPE, STREAM, epoch],
  );
  await sql.query(
    `INSERT INTO stream_segments
       (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
     VALUES ($1, $2, $3, $4::int, $4::int, $5, $6)`,
    [SCOPE, STREAM, opened, epoch, ...keys],
  );
  await sql.query(
    `UPDATE segment_numbering SET next_number = $3 WHERE scope_name = $1 AND stream_name = $2`,
    [SCOPE, STREAM, opened + 1],
  );
  await sql.query('COMMIT');
}

/** A page of scaling events as each schema's service reads it: its epochs, then its segments. */
async function page(sql: Client, schema: Schema, first: number): Promise<void> {
  const last = first + PAGE - 1;
  if (schema === 'lists') {
    const { rows } = await sql.query<{ active_segments: number[] }>(
      `SELECT epoch, created_at, active_segments FROM stream_epochs
        WHERE scope_name = $1 AND stream_name = $2 AND epoch >= $3 ORDER BY epoch LIMIT $4`,
      [SCOPE, STREAM, first, PAGE],
    );
    await sql.query(
      `SELECT number, start_time, key_start, key_end, created_in, sealed_in FROM stream_segments
        WHERE scope_name = $1 AND stream_name = $2 AND number = ANY($3::int[])
       UNION ALL
       SELECT number, start_time, key_start, key_end, created_in, sealed_in FROM stream_segments
        WHERE scope_name = $1 AND stream_name = $2 AND created_in > $4 AND created_in <= $5`,
      [SCOPE, STREAM, rows[0].active_segments, first, last],
    );
    return;
  }
  await sql.query(
    `SELECT epoch, created_at FROM stream_epochs
      WHERE scope_name = $1 AND stream_name = $2 AND epoch >= $3 ORDER BY epoch LIMIT $4`,
    [SCOPE, STREAM, first, PAGE],
  );
  await sql.query(
    `SELECT number, start_time, key_start, key_end, created_in, sealed_in FROM stream_segments g
      WHERE scope_name = $1 AND stream_name = $2
        AND int4range(created_in, sealed_in) && int4range($3, $4, '[]')`,
    [SCOPE, STREAM, first, last],
  );
}

/** CPU µs per repetition: the database backend's, and this client's (which parses the rows). */
interface Cpu {
  database: number;
  client: number;
}

interface Measured {
  scale: Cpu;
  page: Cpu;
  epochsMb: number;
  segmentsMb: number;
}

async function cpuOf(sql: Client, times: number, work: (i: number) => Promise<void>): Promise<Cpu> {
  const { rows } = await sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const [database, client] = [cpuSeconds(rows[0].pid), process.cpuUsage()];
  for (let i = 0; i < times; i++) await work(i);
  const used = process.cpuUsage(client);
  return {
    database: ((cpuSeconds(rows[0].pid) - database) * 1e6) / times,
    client: (used.user + used.system) / times,
  };
}

async function measure(serverUrl: string, schema: Schema): Promise<Measured> {
  const database = await BenchDatabase.create(serverUrl);
  try {
    await migrated(database.url, schema);
    return await database.use(async (sql) => {
      await seed(sql, schema);
      const active = Array.from({ length: SEGMENTS }, (_, i) => i);
      const scaled = await cpuOf(sql, SCALES, (i) => scale(sql, schema, i, active));
      await sql.query('VACUUM ANALYZE');
      const pages = Math.floor(SCALES / PAGE);
      const paged = await cpuOf(sql, 200, (i) => page(sql, schema, (i % pages) * PAGE));
      const size = async (table: string) =>
        Number(
          (
            await sql.query<{ bytes: string }>(`SELECT pg_total_relation_size($1) AS bytes`, [
              table,
            ])
          ).rows[0].bytes,
        ) /
        2 ** 20;
      return {
        scale: scaled,
        page: paged,
        epochsMb: await size('stream_epochs'),
        segmentsMb: await size('stream_segments'),
      };
    });
  } finally {
    await database.drop();
  }
}

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  console.log(
    `load at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const lists = await measure(serverUrl, 'lists');
  const lives = await measure(serverUrl, 'lives');
  console.log(
    `load at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `\n${SCALES} scales of one segment of a stream of ${SEGMENTS} segments, then pages of ${PAGE} epochs`,
  );
  console.log(
    '| storage | CPU µs per scale: database / client | CPU µs per page: database / client | epochs MB | segments MB |',
  );
  console.log('| :-- | --: | --: | --: | --: |');
  const cpu = (c: Cpu) => `${c.database.toFixed(0)} / ${c.client.toFixed(0)}`;
  for (const [what, m] of [
    ['a list on every epoch (before)', lists],
    ['segment lives (SegmentLives)', lives],
  ] as const) {
    console.log(
      `| ${what} | ${cpu(m.scale)} | ${cpu(m.page)} | ${m.epochsMb.toFixed(1)} | ${m.segmentsMb.toFixed(1)} |`,
    );
  }
  const total = (c: Cpu) => c.database + c.client;
  console.log(
    `ratio: scale lives/lists CPU ${(total(lives.scale) / total(lists.scale)).toFixed(2)}`,
  );
  console.log(`ratio: page lives/lists CPU ${(total(lives.page) / total(lists.page)).toFixed(2)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
