import { Client } from 'pg';

/** A database of its own for one benchmark run, on the server at `serverUrl`. */
export class BenchDatabase {
  private constructor(
    private readonly serverUrl: URL,
    readonly name: string,
  ) {}

  static async create(serverUrl: string): Promise<BenchDatabase> {
    const name = `tributary_bench_${Date.now()}_${process.pid}`;
    const database = new BenchDatabase(new URL(serverUrl), name);
    await database.onServer((client) => client.query(`CREATE DATABASE ${name}`));
    return database;
  }

  get url(): string {
    const url = new URL(this.serverUrl);
    url.pathname = `/${this.name}`;
    return url.toString();
  }

  /** Runs `work` with a connection to this database. */
  async use<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: this.url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  async drop(): Promise<void> {
    await this.onServer((client) =>
      client.query(`DROP DATABASE IF EXISTS ${this.name} WITH (FORCE)`),
    );
  }

  private async onServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: this.serverUrl.toString() });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }
}

/** Zero-padded stream names, so that a scope's streams sort as they are numbered. */
export const streamName = (i: number): string => `stream-${String(i).padStart(6, '0')}`;

/** How many segments {@link seedStreams} gives stream `i`: two for every third, else one. */
export const seededSegments = (i: number): number => (i % 3 === 0 ? 2 : 1);

/**
 * Writes `count` user streams into `scope` (created if missing) exactly as the service writes
 * them: each with its `_MARK` companion, and for both epoch 0 with `min_segments` equal segments
 * and the segment numbering. One set-based statement, so 100,000 streams take seconds.
 * Every third stream scales by event rate with two segments; every other one keeps a day of
 * data; each carries the tags `bench` and `group-<i mod 10>`.
 */
export async function seedStreams(
  client: Client,
  scope: string,
  count: number,
  first = 1,
): Promise<void> {
  await client.query(`INSERT INTO scopes (name) VALUES ($1) ON CONFLICT DO NOTHING`, [scope]);
  await client.query(
    `WITH s AS (
       INSERT INTO streams (scope_name, name, owner_stream, state, scaling_type, min_segments,
         target_rate, scale_factor, retention_type, retention_min, retention_max, tags)
       SELECT $1, 'stream-' || lpad(i::text, 6, '0'), NULL, 'ACTIVE',
              CASE WHEN i % 3 = 0 THEN 'BY_RATE_IN_EVENTS_PER_SEC' ELSE 'FIXED_NUM_SEGMENTS' END,
              CASE WHEN i % 3 = 0 THEN 2 ELSE 1 END,
              CASE WHEN i % 3 = 0 THEN 100 END, CASE WHEN i % 3 = 0 THEN 2 END,
              CASE WHEN i % 2 = 0 THEN 'LIMITED_DAYS' END, CASE WHEN i % 2 = 0 THEN 1440 END,
              NULL::bigint, ARRAY['bench', 'group-' || (i % 10)]
         FROM generate_series($2::int, $3::int) AS i
       UNION ALL
       SELECT $1, '_MARKstream-' || lpad(i::text, 6, '0'), 'stream-' || lpad(i::text, 6, '0'),
              'ACTIVE', 'FIXED_NUM_SEGMENTS', 1, NULL, NULL, NULL, NULL, NULL, '{}'
         FROM generate_series($2::int, $3::int) AS i
       RETURNING scope_name, name, min_segments
     ), numbering AS (
       INSERT INTO segment_numbering (scope_name, stream_name, next_number)
       SELECT scope_name, name, min_segments FROM s
     ), epochs AS (
       INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at)
       SELECT scope_name, name, 0, $4::bigint FROM s
     )
     INSERT INTO stream_segments
       (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
     SELECT scope_name, name, i, 0, $4::bigint, i::float8 / min_segments, (i + 1)::float8 / min_segments
       FROM s, generate_series(0, min_segments - 1) AS i`,
    [scope, first, first + count - 1, Date.now()],
  );
}

/**
 * A stream whose history holds `epochs` epochs, one second apart from `start`, alternating
 * between one and two equal segments, as that many rescaling updates would have left it
 * (segments numbered on, each sealed by the next epoch). Its `_MARK` companion has epoch 0.
 */
export async function seedHistory(
  client: Client,
  scope: string,
  name: string,
  epochs: number,
  start: number,
): Promise<void> {
  const last = epochs - 1;
  // Epoch e has (e % 2) + 1 segments, numbered from (e / 2) * 3 + e % 2.
  const count = (e: number) => (e % 2) + 1;
  const firstNumber = (e: number) => Math.floor(e / 2) * 3 + (e % 2);
  await client.query(`INSERT INTO scopes (name) VALUES ($1) ON CONFLICT DO NOTHING`, [scope]);
  await client.query(
    `INSERT INTO streams (scope_name, name, owner_stream, state, scaling_type, min_segments, tags)
     VALUES ($1, $2, NULL, 'ACTIVE', 'FIXED_NUM_SEGMENTS', $3, '{}'),
            ($1, '_MARK' || $2, $2, 'ACTIVE', 'FIXED_NUM_SEGMENTS', 1, '{}')`,
    [scope, name, count(last)],
  );
  await client.query(
    `WITH e AS (
       SELECT e, (e % 2) + 1 AS n, (e / 2) * 3 + e % 2 AS first, $4::bigint + e * 1000 AS at
         FROM generate_series(0, $3::int - 1) AS e
     ), epochs AS (
       INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at)
       SELECT $1, $2, e, at FROM e
     )
     INSERT INTO stream_segments
       (scope_name, stream_name, number, created_in, sealed_in, start_time, key_start, key_end)
     SELECT $1, $2, first + i, e, CASE WHEN e < $3::int - 1 THEN e + 1 END, at,
            i::float8 / n, (i + 1)::float8 / n
       FROM e, generate_series(0, n - 1) AS i`,
    [scope, name, epochs, start],
  );
  await client.query(
    `INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at)
     VALUES ($1, '_MARK' || $2, 0, $3)`,
    [scope, name, start],
  );
  await client.query(
    `INSERT INTO stream_segments
       (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
     VALUES ($1, '_MARK' || $2, 0, 0, $3, 0, 1)`,
    [scope, name, start],
  );
  await client.query(
    `INSERT INTO segment_numbering (scope_name, stream_name, next_number)
     VALUES ($1, $2, $3), ($1, '_MARK' || $2, 1)`,
    [scope, name, firstNumber(last) + count(last)],
  );
}

/**
 * Streams `names` of `segments` equal segments whose histories hold `epochs` epochs, one second
 * apart from `start`, as that many scales by hand would have left them: each epoch after the
 * first seals one segment and opens one over the same keys, position after position. Each with
 * its `_MARK` companion. Set-based, as the service writes the rows.
 */
export async function seedManualScales(
  client: Client,
  scope: string,
  names: string[],
  segments: number,
  epochs: number,
  start: number,
): Promise<void> {
  await client.query(`INSERT INTO scopes (name) VALUES ($1) ON CONFLICT DO NOTHING`, [scope]);
  const params = [scope, names, segments, epochs, start];
  await client.query(
    `INSERT INTO streams (scope_name, name, owner_stream, state, scaling_type, min_segments, tags)
     SELECT $1, n, NULL, 'ACTIVE', 'FIXED_NUM_SEGMENTS', $3, '{}'::text[] FROM unnest($2::text[]) n
     UNION ALL
     SELECT $1, '_MARK' || n, n, 'ACTIVE', 'FIXED_NUM_SEGMENTS', 1, '{}' FROM unnest($2::text[]) n`,
    params.slice(0, 3),
  );
  await client.query(
    `INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at)
     SELECT $1, n, e, $4::bigint + e * 1000
       FROM unnest($2::text[]) n, generate_series(0, $3::int - 1) e
     UNION ALL
     SELECT $1, '_MARK' || n, 0, $4::bigint FROM unnest($2::text[]) n`,
    [scope, names, epochs, start],
  );
  // Epoch e >= 1 seals segment e - 1 and opens segment S - 1 + e at its position: segment k
  // opens in epoch max(k - S + 1, 0) at position k % S, and epoch k + 1 seals it.
  await client.query(
    `WITH life AS (
       SELECT k, greatest(k - $3::int + 1, 0) AS created, k % $3::int AS position, k + 1 AS sealed
         FROM generate_series(0, $3::int + $4::int - 2) k
     )
     INSERT INTO stream_segments
       (scope_name, stream_name, number, created_in, sealed_in, start_time, key_start, key_end)
     SELECT $1, n, k, created, CASE WHEN sealed < $4::int THEN sealed END,
            $5::bigint + created * 1000, position::float8 / $3::int, (position + 1)::float8 / $3::int
       FROM unnest($2::text[]) n, life
     UNION ALL
     SELECT $1, '_MARK' || n, 0, 0, NULL, $5::bigint, 0, 1 FROM unnest($2::text[]) n`,
    params,
  );
  await client.query(
    `INSERT INTO segment_numbering (scope_name, stream_name, next_number)
     SELECT $1, n, $3::int + $4::int - 1 FROM unnest($2::text[]) n
     UNION ALL
     SELECT $1, '_MARK' || n, 1 FROM unnest($2::text[]) n`,
    params.slice(0, 4),
  );
}
