/**
 * The floor: the least a Node.js program can do to answer the benchmark's routes with the same
 * JSON from the same tables. Plain `node:http` and `pg`, one named (prepared) query per read,
 * writes in one transaction touching the same rows as the service. It shares the service's pure
 * rules and renderers (configuration, retention, scaling history), so the two differ only in
 * the machinery around them: framework, ORM, validation, middleware.
 *
 * Not a product: no problem documents, no request ids, no body-size limit, only the happy paths
 * and the 404s the benchmark needs. Started by `bench/run.ts` with PORT, DATABASE_URL and
 * DB_POOL_SIZE.
 */
import { statfs } from 'node:fs/promises';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool, PoolClient, QueryConfig, types } from 'pg';
import { InvalidRequestError } from '../../src/common/errors/domain-error';
import { markStreamName, streamNameProblem } from '../../src/common/names';
import { needsRescale } from '../../src/scaling/scaling-decision';
import {
  buildScaleRecords,
  nextEpochTime,
  SegmentRecord,
  selectWindow,
} from '../../src/scaling/scaling-history';
import type { StreamConfiguration } from '../../src/streams/stream-configuration';
import { toStreamConfiguration } from '../../src/streams/stream-configuration';
import type { StreamEntity } from '../../src/streams/stream.entity';
import { configurationColumns, toStreamProperty } from '../../src/streams/stream.mapper';

// int8 arrives as a number, as the service's entities convert it (every stored value is safe).
types.setTypeParser(types.builtins.INT8, Number);

const STARTED_AT = new Date().toISOString();

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 10),
  application_name: 'tributary-floor',
});

/** The stream columns, named as the entity's properties so the service's renderer takes them. */
const STREAM_COLUMNS = `scope_name AS "scopeName", name, scaling_type AS "scalingType",
  min_segments AS "minSegments", target_rate AS "targetRate", scale_factor AS "scaleFactor",
  retention_type AS "retentionType", retention_min AS "retentionMin",
  retention_max AS "retentionMax", tags, rollover_size_bytes AS "rolloverSizeBytes",
  timestamp_aggregation_timeout AS "timestampAggregationTimeout"`;

const USER_STREAMS = `FROM streams WHERE scope_name = $1 AND name NOT LIKE '\\_%'`;

const SQL = {
  scopes: `SELECT name AS "scopeName" FROM scopes ORDER BY name`,
  scope: `SELECT name AS "scopeName" FROM scopes WHERE name = $1`,
  stream: `SELECT ${STREAM_COLUMNS} FROM streams WHERE scope_name = $1 AND name = $2`,
  streams: `SELECT ${STREAM_COLUMNS} ${USER_STREAMS} ORDER BY name`,
  streamsByTag: `SELECT ${STREAM_COLUMNS} ${USER_STREAMS} AND tags @> ARRAY[$2::text] ORDER BY name`,
  streamExists: `SELECT 1 FROM streams WHERE scope_name = $1 AND name = $2`,
  epochs: `(SELECT epoch, created_at AS timestamp, active_segments FROM stream_epochs
             WHERE scope_name = $1 AND stream_name = $2 AND created_at <= $3
             ORDER BY created_at DESC LIMIT 1)
           UNION ALL
           (SELECT epoch, created_at, active_segments FROM stream_epochs
             WHERE scope_name = $1 AND stream_name = $2 AND created_at > $3 AND created_at <= $4)`,
  segments: `SELECT number, start_time AS "startTime", key_start AS "keyStart", key_end AS "keyEnd",
                    created_in AS "createdIn", sealed_in AS "sealedIn" FROM stream_segments
              WHERE scope_name = $1 AND stream_name = $2 AND number = ANY($3::int[])
             UNION ALL
             SELECT number, start_time, key_start, key_end, created_in, sealed_in FROM stream_segments
              WHERE scope_name = $1 AND stream_name = $2 AND created_in > $4 AND created_in <= $5`,
  insertStreams: `INSERT INTO streams (scope_name, name, owner_stream, state, scaling_type,
      min_segments, target_rate, scale_factor, retention_type, retention_min, retention_max, tags,
      rollover_size_bytes, timestamp_aggregation_timeout)
    VALUES ($1, $2, NULL, 'ACTIVE', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12),
           ($1, $13, $2, 'ACTIVE', 'FIXED_NUM_SEGMENTS', 1, NULL, NULL, NULL, NULL, NULL, '{}', 0, 0)`,
  lockStream: `SELECT s.state, e.epoch, e.created_at AS "createdAt", e.active_segments AS active
                 FROM streams s,
                      LATERAL (SELECT epoch, created_at, active_segments FROM stream_epochs
                                WHERE scope_name = s.scope_name AND stream_name = s.name
                                ORDER BY epoch DESC LIMIT 1) e
                WHERE s.scope_name = $1 AND s.name = $2
                  FOR UPDATE OF s`,
  updateStream: `UPDATE streams SET scaling_type = $3, min_segments = $4, target_rate = $5,
      scale_factor = $6, retention_type = $7, retention_min = $8, retention_max = $9, tags = $10,
      rollover_size_bytes = $11, timestamp_aggregation_timeout = $12, updated_at = now()
    WHERE scope_name = $1 AND name = $2`,
  sealSegments: `UPDATE stream_segments SET sealed_in = $3
                  WHERE scope_name = $1 AND stream_name = $2 AND number = ANY($4::int[])`,
  /** Reserves the numbers, writes the epoch and its equal segments: one statement. */
  addEpoch: `WITH n AS (
      INSERT INTO segment_numbering AS n (scope_name, stream_name, next_number)
      VALUES ($1, $2, $5::int)
      ON CONFLICT (scope_name, stream_name) DO UPDATE SET next_number = n.next_number + EXCLUDED.next_number
      RETURNING n.next_number - $5::int AS first
    ), e AS (
      INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at, active_segments)
      SELECT $1, $2, $3::int, $4::bigint, ARRAY(SELECT generate_series(first, first + $5::int - 1)) FROM n
    )
    INSERT INTO stream_segments (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
    SELECT $1, $2, n.first + i, $3::int, $4::bigint, i::float8 / $5::int, (i + 1)::float8 / $5::int
      FROM n, generate_series(0, $5::int - 1) AS i`,
  health: `SELECT 1`,
  migrations: `SELECT name FROM tributary_migrations ORDER BY id`,
} as const;

type QueryName = keyof typeof SQL;

/**
 * Queries whose best plan depends on their values: a prepared statement would fall back to a
 * generic plan after five runs, one that cannot tell a narrow window from the whole history.
 */
const PLANNED_EACH_TIME = new Set<QueryName>(['epochs', 'segments']);

const query = <R extends object>(
  name: QueryName,
  values: unknown[] = [],
  client: Pool | PoolClient = pool,
): Promise<R[]> => {
  const config: QueryConfig = PLANNED_EACH_TIME.has(name)
    ? { text: SQL[name], values }
    : { name, text: SQL[name], values };
  return client.query<R>(config).then((r) => r.rows);
};

class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

const notFound = (): never => {
  throw new HttpError(404);
};

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status, { 'Content-Length': 0 }).end();
    return;
  }
  const json = JSON.stringify(body);
  res
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(json),
    })
    .end(json);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      return body as Record<string, unknown>;
    }
  } catch {
    // answered below
  }
  throw new HttpError(400);
}

async function inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** The configuration's columns, in the order the insert and update statements take them. */
function configurationValues(config: StreamConfiguration): unknown[] {
  const c = configurationColumns(config);
  return [
    c.scalingType,
    c.minSegments,
    c.targetRate,
    c.scaleFactor,
    c.retentionType,
    c.retentionMin,
    c.retentionMax,
    c.tags,
    c.rolloverSizeBytes,
    c.timestampAggregationTimeout,
  ];
}

const rendered = (scope: string, name: string, config: StreamConfiguration) =>
  toStreamProperty({ scopeName: scope, name, ...configurationColumns(config) } as StreamEntity);

async function assertScope(scope: string): Promise<void> {
  if ((await query('scope', [scope])).length === 0) notFound();
}

async function listStreams(scope: string, url: URL): Promise<unknown> {
  const tag = url.searchParams.get('filter_type') === 'tag' && url.searchParams.get('filter_value');
  const streams = tag
    ? await query<StreamEntity>('streamsByTag', [scope, tag])
    : await query<StreamEntity>('streams', [scope]);
  if (streams.length === 0) await assertScope(scope);
  return { streams: streams.map(toStreamProperty) };
}

async function createStream(scope: string, body: Record<string, unknown>): Promise<unknown> {
  const name = body.streamName;
  if (typeof name !== 'string' || streamNameProblem(name)) throw new HttpError(400);
  const config = toStreamConfiguration(body);
  const now = Date.now();
  await inTransaction(async (tx) => {
    const mark = markStreamName(name);
    await query('insertStreams', [scope, name, ...configurationValues(config), mark], tx);
    await query('addEpoch', [scope, name, 0, now, config.scaling.minSegments], tx);
    await query('addEpoch', [scope, mark, 0, now, 1], tx);
  });
  return rendered(scope, name, config);
}

interface LockedStream {
  state: string;
  epoch: number;
  createdAt: number;
  active: number[];
}

async function updateStream(
  scope: string,
  name: string,
  body: Record<string, unknown>,
): Promise<unknown> {
  if (!body.scalingPolicy) throw new HttpError(400);
  const config = toStreamConfiguration(body);
  await inTransaction(async (tx) => {
    const [stream] = await query<LockedStream>('lockStream', [scope, name], tx);
    if (!stream) notFound();
    if (stream.state === 'SEALED') throw new HttpError(412);
    await query('updateStream', [scope, name, ...configurationValues(config)], tx);
    if (!needsRescale(config.scaling, stream.active.length)) return;
    const epoch = stream.epoch + 1;
    const time = nextEpochTime(stream.createdAt, Date.now());
    await query('sealSegments', [scope, name, epoch, stream.active], tx);
    await query('addEpoch', [scope, name, epoch, time, config.scaling.minSegments], tx);
  });
  return rendered(scope, name, config);
}

type SegmentRow = Omit<SegmentRecord, 'sealedIn'> & { sealedIn: number | null };

async function scalingEvents(scope: string, name: string, url: URL): Promise<unknown> {
  const from = Number(url.searchParams.get('from'));
  const to = Number(url.searchParams.get('to'));
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || from > to) {
    throw new HttpError(400);
  }
  const rows = await query<{ epoch: number; timestamp: number; active_segments: number[] }>(
    'epochs',
    [scope, name, from, to],
  );
  if (rows.length === 0 && (await query('streamExists', [scope, name])).length === 0) notFound();
  const epochs = selectWindow(rows, from, to);
  if (epochs.length === 0) return { scalingEvents: [] };
  const first = epochs[0].epoch;
  const last = epochs[epochs.length - 1].epoch;
  const active = rows.find((row) => row.epoch === first)!.active_segments;
  const segments = (await query<SegmentRow>('segments', [scope, name, active, first, last])).map(
    ({ sealedIn, ...segment }): SegmentRecord =>
      sealedIn === null ? segment : { ...segment, sealedIn },
  );
  return { scalingEvents: buildScaleRecords(epochs, segments) };
}

/** The database's part of the health, reused for a second as the service's is. */
let databaseHealth: { at: number; migrations: Array<{ name: string }> } | undefined;

/** The same tree as the service: five contributors, memory with heap and rss. */
async function health(): Promise<unknown> {
  if (!databaseHealth || Date.now() - databaseHealth.at > 1000) {
    await query('health');
    databaseHealth = { at: Date.now(), migrations: await query<{ name: string }>('migrations') };
  }
  const disk = await statfs('.');
  const memory = process.memoryUsage();
  const node = (name: string, details: Record<string, string>, children = {}) => ({
    name,
    status: 'UP',
    readiness: true,
    liveness: true,
    details,
    children,
  });
  return node(
    'tributary',
    { state: 'serving', startedAt: STARTED_AT },
    {
      database: node('database', { responseTime: '1', cachedResponse: 'true' }),
      migrations: node('migrations', {
        applied: String(databaseHealth.migrations.length),
        latest: databaseHealth.migrations.at(-1)?.name ?? 'none',
      }),
      memory: node(
        'memory',
        {},
        {
          heap: node('heap', { usedBytes: String(memory.heapUsed), limitBytes: '536870912' }),
          rss: node('rss', { usedBytes: String(memory.rss), limitBytes: '1073741824' }),
        },
      ),
      disk: node('disk', {
        path: process.cwd(),
        freeBytes: String(disk.bavail * disk.bsize),
        totalBytes: String(disk.blocks * disk.bsize),
        minFreeBytes: '104857600',
      }),
      eventLoop: node('eventLoop', { maxDelayMs: '0.0', meanDelayMs: '0.0', limitMs: '1000' }),
    },
  );
}

/** Routes `/v1/...`; answers the status and the body (undefined: no body). */
async function route(req: IncomingMessage, url: URL): Promise<[number, unknown?]> {
  // Where a starting process is asked whether it serves yet (ServiceProcess.ready).
  if (url.pathname === '/ping') return [200];
  const [v1, resource, scope, sub, stream, tail, ...rest] = url.pathname
    .split('/')
    .slice(1)
    .map(decodeURIComponent);
  if (v1 !== 'v1' || rest.length > 0) notFound();
  const method = req.method;
  if (resource === 'health' && scope === undefined && method === 'GET')
    return [200, await health()];
  if (resource !== 'scopes') notFound();
  if (scope === undefined && method === 'GET') {
    return [200, { scopes: await query('scopes') }];
  }
  if (sub === undefined && method === 'GET') {
    const [found] = await query('scope', [scope]);
    return found ? [200, found] : notFound();
  }
  if (sub !== 'streams') notFound();
  if (stream === undefined) {
    if (method === 'GET') return [200, await listStreams(scope, url)];
    if (method === 'POST') return [201, await createStream(scope, await readJson(req))];
  } else if (tail === undefined) {
    if (method === 'GET') {
      const [found] = await query<StreamEntity>('stream', [scope, stream]);
      return found ? [200, toStreamProperty(found)] : notFound();
    }
    if (method === 'PUT') return [200, await updateStream(scope, stream, await readJson(req))];
  } else if (tail === 'scaling-events' && method === 'GET') {
    return [200, await scalingEvents(scope, stream, url)];
  }
  return notFound();
}

/** The PostgreSQL errors a write can meet: a duplicate (409) or a missing scope (404). */
function statusOf(error: unknown): number {
  if (error instanceof HttpError) return error.status;
  if (error instanceof InvalidRequestError) return 400;
  const code = (error as { code?: unknown }).code;
  if (code === '23505') return 409;
  if (code === '23503') return 404;
  console.error(error);
  return 500;
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://floor');
  route(req, url).then(
    ([status, body]) => send(res, status, body),
    (error: unknown) => send(res, statusOf(error)),
  );
});

server.listen(Number(process.env.PORT ?? 9092), process.env.HOST ?? '127.0.0.1');

const stop = (): void => {
  server.close();
  server.closeAllConnections();
  void pool.end();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
