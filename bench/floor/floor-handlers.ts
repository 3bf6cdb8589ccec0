/**
 * What both floors do for each route: plain async functions over `pg`, one named (prepared)
 * query per read, each write in one transaction touching the same rows as the service (audit
 * row included). The node:http floor (`floor-server.ts`) and the Nest floor (`nest-floor.ts`)
 * only route to these, so the two differ in the HTTP machinery alone. They share the
 * service's pure rules and renderers (configuration, retention, scaling history, names), so the
 * floors and the service differ only in the machinery around them.
 *
 * Not a product: no problem documents, no request ids in answers, only the happy paths and the
 * 4xx the benchmark needs. Configured by DATABASE_URL and DB_POOL_SIZE.
 */
import { KeyObject, randomUUID } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { Pool, PoolClient, QueryConfig, types } from 'pg';
import { readerGroupResource, streamResource } from '../../src/auth/resources';
import { InvalidRequestError } from '../../src/common/domain-error';
import { newEvent } from '../../src/events/change-event';
import { markStreamName, READER_GROUP_PREFIX, streamNameProblem } from '../../src/common/names';
import { issueToken, listName, readToken, tokenKey } from '../../src/pagination/continuation-token';
import { nextPageLink } from '../../src/pagination/next-page-link';
import { scopedName, toStreamRefs } from '../../src/reader-groups/stream-ref';
import { needsRescale } from '../../src/scaling/scaling-decision';
import {
  buildScaleRecords,
  nextEpochTime,
  SegmentRecord,
  selectWindow,
} from '../../src/scaling/scaling-history';
import {
  INTERNAL_STREAM_CONFIGURATION,
  StreamConfiguration,
  toStreamConfiguration,
} from '../../src/streams/stream-configuration';
import {
  configurationColumns,
  ConfigurationColumns,
  configurationOf,
} from '../../src/streams/stream.entity';
import type { StreamState } from '../../src/streams/stream';
import { toStreamProperty } from '../../src/streams/stream.mapper';

// int8 arrives as a number, as the service's entities convert it (every stored value is safe).
types.setTypeParser(types.builtins.INT8, Number);

const STARTED_AT = new Date().toISOString();

/** The `_RG` stream of a reader group, as the service configures it. */
const READER_GROUP_STREAM_CONFIGURATION: StreamConfiguration = {
  ...INTERNAL_STREAM_CONFIGURATION,
  rolloverSizeBytes: 4_194_304,
};

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 10),
  application_name: 'tributary-floor',
});

/** A stream's row, its columns named as the entity's properties. */
type StreamRow = ConfigurationColumns & { scopeName: string; name: string; state: StreamState };

/** The stream of a row, as the service's entity reads its configuration. */
const streamOf = (row: StreamRow) => ({
  scopeName: row.scopeName,
  name: row.name,
  state: row.state,
  configuration: configurationOf(row),
});

/** The stream columns, named as the entity's properties. */
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
  /** A page: the names after $2 (every name is longer than ''), $3 rows. */
  streamsPage: `SELECT ${STREAM_COLUMNS} ${USER_STREAMS} AND name > $2 ORDER BY name LIMIT $3`,
  streamsByTagPage: `SELECT ${STREAM_COLUMNS} ${USER_STREAMS} AND tags @> ARRAY[$4::text]
    AND name > $2 ORDER BY name LIMIT $3`,
  paginationKey: `SELECT key FROM pagination_key`,
  streamExists: `SELECT 1 FROM streams WHERE scope_name = $1 AND name = $2`,
  epochs: `(SELECT epoch, created_at AS timestamp FROM stream_epochs
             WHERE scope_name = $1 AND stream_name = $2 AND created_at <= $3
             ORDER BY created_at DESC LIMIT 1)
           UNION ALL
           (SELECT epoch, created_at FROM stream_epochs
             WHERE scope_name = $1 AND stream_name = $2 AND created_at > $3 AND created_at <= $4)`,
  segments: `SELECT number, start_time AS "startTime", key_start AS "keyStart", key_end AS "keyEnd",
                    created_in AS "createdIn", sealed_in AS "sealedIn" FROM stream_segments
              WHERE scope_name = $1 AND stream_name = $2
                AND int4range(created_in, sealed_in) && int4range($3, $4, '[]')`,
  /** A stream ($2, owned by reader group $14 or none) and its `_MARK` companion ($13). */
  insertStreams: `INSERT INTO streams (scope_name, name, owner_stream, owner_reader_group, state,
      scaling_type, min_segments, target_rate, scale_factor, retention_type, retention_min,
      retention_max, tags, rollover_size_bytes, timestamp_aggregation_timeout)
    VALUES ($1, $2, NULL, $14, 'ACTIVE', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12),
           ($1, $13, $2, NULL, 'ACTIVE', 'FIXED_NUM_SEGMENTS', 1, NULL, NULL, NULL, NULL, NULL, '{}', 0, 0)`,
  lockStream: `SELECT ${STREAM_COLUMNS}, s.state, e.epoch, e.created_at AS "createdAt",
                      ARRAY(SELECT g.number FROM stream_segments g
                             WHERE g.scope_name = s.scope_name AND g.stream_name = s.name
                               AND int4range(g.created_in, g.sealed_in) @> e.epoch
                             ORDER BY g.number) AS active
                 FROM streams s,
                      LATERAL (SELECT epoch, created_at FROM stream_epochs
                                WHERE scope_name = s.scope_name AND stream_name = s.name
                                ORDER BY epoch DESC LIMIT 1) e
                WHERE s.scope_name = $1 AND s.name = $2
                  FOR UPDATE OF s`,
  updateStream: `UPDATE streams SET scaling_type = $3, min_segments = $4, target_rate = $5,
      scale_factor = $6, retention_type = $7, retention_min = $8, retention_max = $9, tags = $10,
      rollover_size_bytes = $11, timestamp_aggregation_timeout = $12, version = version + 1,
      updated_at = now()
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
      INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at)
      VALUES ($1, $2, $3::int, $4::bigint)
    )
    INSERT INTO stream_segments (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
    SELECT $1, $2, n.first + i, $3::int, $4::bigint, i::float8 / $5::int, (i + 1)::float8 / $5::int
      FROM n, generate_series(0, $5::int - 1) AS i`,
  audit: `INSERT INTO audit_events
      (principal, client_address, user_agent, request_id, operation, resource, outcome, before, after)
    VALUES ('anonymous', $1, $2, $3, $4, $5, 'SUCCEEDED', $6, $7)`,
  /** The change feed's event, its id taken at commit as the service takes it (one event). */
  feedEvent: `WITH next AS (UPDATE change_feed SET last_id = last_id + 1 RETURNING last_id),
      wake AS (SELECT pg_notify('tributary_change_feed', ''))
    INSERT INTO change_events (id, scope_name, resource, body)
    SELECT next.last_id, $1, $2, $3 FROM next, wake`,
  readerGroup: `SELECT
      ARRAY(SELECT s.stream_scope || '/' || s.stream_name FROM reader_group_streams s
             WHERE s.scope_name = g.scope_name AND s.reader_group = g.name
             ORDER BY s.position) AS streams,
      ARRAY(SELECT r.reader_id FROM reader_group_readers r
             WHERE r.scope_name = g.scope_name AND r.reader_group = g.name
             ORDER BY r.reader_id) AS readers
    FROM reader_groups g WHERE g.scope_name = $1 AND g.name = $2`,
  insertReaderGroup: `INSERT INTO reader_groups (scope_name, name) VALUES ($1, $2)`,
  lockStreams: `SELECT s.scope_name, s.name FROM streams s
      JOIN unnest($1::text[], $2::text[]) AS r (stream_scope, stream_name)
        ON s.scope_name = r.stream_scope AND s.name = r.stream_name
    FOR KEY SHARE OF s`,
  readerGroupStreams: `INSERT INTO reader_group_streams
      (scope_name, reader_group, position, stream_scope, stream_name)
    SELECT $1, $2, r.position - 1, r.stream_scope, r.stream_name
      FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS r (stream_scope, stream_name, position)`,
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

/** An answer without a body, by its status (404, 400, 412). */
export class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

const notFound = (): never => {
  throw new HttpError(404);
};

/** The status of a failed handler: its own, 400 for a broken rule, 409 and 404 from PostgreSQL. */
export function statusOf(error: unknown): number {
  if (error instanceof HttpError) return error.status;
  if (error instanceof InvalidRequestError) return 400;
  const code = (error as { code?: unknown }).code;
  if (code === '23505') return 409;
  if (code === '23503') return 404;
  console.error(error);
  return 500;
}

/** Who asked, for the audit row (the service records the same). */
export interface Caller {
  address?: string;
  userAgent?: string;
}

type Body = Record<string, unknown>;

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

/**
 * The audit row of a change and, as the transaction's last statement, its event of the change
 * feed (the resource as its GET answers it, when there is one after the change).
 */
async function audit(
  tx: PoolClient,
  caller: Caller,
  entry: {
    operation: string;
    resource: string;
    before?: object;
    after?: object;
    /** The resource as its GET answers it after the change, when that is not `after`. */
    shown?: object;
  },
): Promise<void> {
  const requestId = randomUUID();
  await query(
    'audit',
    [
      caller.address ?? null,
      caller.userAgent?.slice(0, 512) ?? null,
      requestId,
      entry.operation,
      entry.resource,
      entry.before ? JSON.stringify(entry.before) : null,
      entry.after ? JSON.stringify(entry.after) : null,
    ],
    tx,
  );
  const event = newEvent({
    operation: entry.operation,
    resource: entry.resource,
    principal: 'anonymous',
    requestId,
    shown: (entry.shown ?? entry.after) && {
      body: (entry.shown ?? entry.after)!,
      etag: `"${Date.now()}000.0"`,
    },
  });
  if (event) await query('feedEvent', [event.scopeName, event.resource, event.body], tx);
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
  toStreamProperty({ scopeName: scope, name, state: 'ACTIVE', configuration: config });

/** A selected row rendered as the service renders a stream (the floor selects no state). */
const renderedRow = (row: StreamRow) => toStreamProperty(streamOf(row));

/** A stream, its companion and the epoch 0 of each, in the caller's transaction. */
async function insertWithCompanion(
  tx: PoolClient,
  scope: string,
  name: string,
  config: StreamConfiguration,
  readerGroup: string | null,
): Promise<void> {
  const mark = markStreamName(name);
  const now = Date.now();
  await query(
    'insertStreams',
    [scope, name, ...configurationValues(config), mark, readerGroup],
    tx,
  );
  await query('addEpoch', [scope, name, 0, now, config.scaling.minSegments], tx);
  await query('addEpoch', [scope, mark, 0, now, 1], tx);
}

async function assertScope(scope: string): Promise<void> {
  if ((await query('scope', [scope])).length === 0) notFound();
}

export const listScopes = async (): Promise<unknown> => ({ scopes: await query('scopes') });

export async function getScope(scope: string): Promise<unknown> {
  const [found] = await query('scope', [scope]);
  return found ?? notFound();
}

/** The paging parameters of a list, as sent. */
export interface PageParams {
  limit?: string;
  continuationToken?: string;
}

/** The service's token key, read once (the migration made it; it never changes). */
let paginationKey: Promise<KeyObject> | undefined;

/** A page of user streams, keyset by name, with the service's tokens (docs/extensions.md section 1). */
async function streamsPage(scope: string, tag: string | undefined, page: PageParams) {
  const limit = page.limit === undefined ? 100 : Number(page.limit);
  if (!/^\d{1,4}$/.test(page.limit ?? '100') || limit < 1 || limit > 1000) {
    throw new HttpError(400);
  }
  paginationKey ??= query<{ key: Buffer }>('paginationKey').then(([row]) => tokenKey(row.key));
  const key = await paginationKey;
  const list = listName(['streams', scope, tag ? { kind: 'tag', tag } : { kind: 'user' }]);
  let after = '';
  if (page.continuationToken !== undefined) {
    try {
      after = readToken<string>(key, list, page.continuationToken);
    } catch {
      throw new HttpError(400);
    }
  }
  const rows = tag
    ? await query<StreamRow>('streamsByTagPage', [scope, after, limit + 1, tag])
    : await query<StreamRow>('streamsPage', [scope, after, limit + 1]);
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return {
    streams: items,
    continuationToken: more ? issueToken(key, list, items[items.length - 1].name) : undefined,
  };
}

/** The `Link` header of a list's answer, when it has a next page. */
export const pageLink = (url: string, body: unknown, page: PageParams): string | undefined => {
  const token = (body as { continuationToken?: string }).continuationToken;
  return token === undefined ? undefined : nextPageLink(url, token, Number(page.limit ?? 100));
};

export async function listStreams(
  scope: string,
  tag?: string,
  page: PageParams = {},
): Promise<unknown> {
  if (page.limit === undefined && page.continuationToken === undefined) {
    const streams = tag
      ? await query<StreamRow>('streamsByTag', [scope, tag])
      : await query<StreamRow>('streams', [scope]);
    if (streams.length === 0) await assertScope(scope);
    return { streams: streams.map(renderedRow) };
  }
  const { streams, continuationToken } = await streamsPage(scope, tag, page);
  if (streams.length === 0) await assertScope(scope);
  const body: { streams: unknown[]; continuationToken?: string } = {
    streams: streams.map(renderedRow),
  };
  if (continuationToken !== undefined) body.continuationToken = continuationToken;
  return body;
}

export async function getStream(scope: string, name: string): Promise<unknown> {
  const [found] = await query<StreamRow>('stream', [scope, name]);
  return found ? renderedRow(found) : notFound();
}

export async function createStream(scope: string, body: Body, caller: Caller): Promise<unknown> {
  const name = body.streamName;
  if (typeof name !== 'string' || streamNameProblem(name)) throw new HttpError(400);
  const config = toStreamConfiguration(body);
  const created = rendered(scope, name, config);
  await inTransaction(async (tx) => {
    await insertWithCompanion(tx, scope, name, config, null);
    await audit(tx, caller, {
      operation: 'createStream',
      resource: streamResource(scope, name),
      after: created,
    });
  });
  return created;
}

type LockedStream = StreamRow & { epoch: number; createdAt: number; active: number[] };

export async function updateStream(
  scope: string,
  name: string,
  body: Body,
  caller: Caller,
): Promise<unknown> {
  if (!body.scalingPolicy) throw new HttpError(400);
  const config = toStreamConfiguration(body);
  const after = rendered(scope, name, config);
  await inTransaction(async (tx) => {
    const [stream] = await query<LockedStream>('lockStream', [scope, name], tx);
    if (!stream) notFound();
    if (stream.state === 'SEALED') throw new HttpError(412);
    await query('updateStream', [scope, name, ...configurationValues(config)], tx);
    if (needsRescale(config.scaling, stream.active.length)) {
      const epoch = stream.epoch + 1;
      const time = nextEpochTime(stream.createdAt, Date.now());
      await query('sealSegments', [scope, name, epoch, stream.active], tx);
      await query('addEpoch', [scope, name, epoch, time, config.scaling.minSegments], tx);
    }
    await audit(tx, caller, {
      operation: 'updateStream',
      resource: streamResource(scope, name),
      before: renderedRow(stream),
      after,
    });
  });
  return after;
}

type SegmentRow = Omit<SegmentRecord, 'sealedIn'> & { sealedIn: number | null };

export async function scalingEvents(
  scope: string,
  name: string,
  fromText?: string,
  toText?: string,
): Promise<unknown> {
  const from = Number(fromText);
  const to = Number(toText);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || from > to) {
    throw new HttpError(400);
  }
  const rows = await query<{ epoch: number; timestamp: number }>('epochs', [scope, name, from, to]);
  if (rows.length === 0 && (await query('streamExists', [scope, name])).length === 0) notFound();
  const epochs = selectWindow(rows, from, to);
  if (epochs.length === 0) return { scalingEvents: [] };
  const first = epochs[0].epoch;
  const last = epochs[epochs.length - 1].epoch;
  const segments = (await query<SegmentRow>('segments', [scope, name, first, last])).map(
    ({ sealedIn, ...segment }): SegmentRecord =>
      sealedIn === null ? segment : { ...segment, sealedIn },
  );
  return { scalingEvents: buildScaleRecords(epochs, segments) };
}

export async function getReaderGroup(scope: string, group: string): Promise<unknown> {
  const [row] = await query<{ streams: string[]; readers: string[] }>('readerGroup', [
    scope,
    group,
  ]);
  if (!row) return notFound();
  return {
    scopeName: scope,
    readerGroupName: group,
    streamList: row.streams,
    onlineReaderIds: row.readers,
  };
}

export async function createReaderGroup(
  scope: string,
  body: Body,
  caller: Caller,
): Promise<unknown> {
  const group = body.readerGroupName;
  if (typeof group !== 'string' || streamNameProblem(group) || !Array.isArray(body.streams)) {
    throw new HttpError(400);
  }
  const refs = toStreamRefs(body.streams as string[], scope);
  const streamList = refs.map(scopedName);
  const [scopes, streams] = [refs.map((r) => r.scope), refs.map((r) => r.stream)];
  const created = { scopeName: scope, readerGroupName: group, streamList, onlineReaderIds: [] };
  await inTransaction(async (tx) => {
    await query('insertReaderGroup', [scope, group], tx);
    const found = await query('lockStreams', [scopes, streams], tx);
    if (found.length !== refs.length) notFound();
    await insertWithCompanion(
      tx,
      scope,
      `${READER_GROUP_PREFIX}${group}`,
      READER_GROUP_STREAM_CONFIGURATION,
      group,
    );
    await query('readerGroupStreams', [scope, group, scopes, streams], tx);
    await audit(tx, caller, {
      operation: 'createReaderGroup',
      resource: readerGroupResource(scope, group),
      after: { readerGroupName: group, streamList },
      shown: created,
    });
  });
  return created;
}

/** The database's part of the health, reused for a second as the service's is. */
let databaseHealth: { at: number; migrations: Array<{ name: string }> } | undefined;

/** The same tree as the service: five contributors, memory with heap and rss. */
export async function health(): Promise<{ status: string; readiness: boolean }> {
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
      database: node('database', { responseTime: '1' }),
      migrations: node('migrations', {
        applied: String(databaseHealth.migrations.length),
        latest: databaseHealth.migrations.at(-1)?.name ?? 'none',
        responseTime: '1',
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

/** The readiness probe: the health tree's verdict. */
export async function readyz(): Promise<unknown> {
  const { readiness, status } = await health();
  return { readiness, status };
}

/** Lets the process end: the pool's idle connections would keep it. */
export const closePool = (): Promise<void> => pool.end();
