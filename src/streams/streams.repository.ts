import { Injectable } from '@nestjs/common';
import { markStreamName } from '../common/names';
import { Keyset, keysetClauses } from '../database/keyset';
import { translateViolations } from '../database/constraint-violations';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { versionColumns } from '../database/version-columns';
import type { ResourceVersion } from '../conditional/resource-version';
import { equalKeyRanges, KeyRange } from '../scaling/key-ranges';
import type { Segment } from '../scaling/manual-scale';
import { Epoch, SegmentRecord } from '../scaling/scaling-history';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import { INTERNAL_STREAM_CONFIGURATION, StreamConfiguration } from './stream-configuration';
import { StreamFilter } from './stream-filter';
import { StreamExistsError } from './stream.errors';
import type { Stream, StreamTimes } from './stream';
import { configurationColumns, streamOf } from './stream-columns';
import type { ConfigurationColumns, StreamRow } from './stream-columns';

/** A stream of a list: without its version, which no list shows. */
export type ListedStream = Omit<Stream, 'revision'>;

/** A row as selected: the stream's columns and its version. */
type VersionedRow = StreamRow & ResourceVersion;

/** The stream of a row; the one object `streamOf` makes is completed, not copied (hot in lists). */
const toStream = (row: VersionedRow): Stream =>
  Object.assign(streamOf(row), { revision: { created: row.created, version: row.version } });

/** What a stream shows; lists need no more. */
const STREAM_FIELDS = `scope_name AS "scopeName", name, state, scaling_type AS "scalingType",
    min_segments AS "minSegments", target_rate AS "targetRate", scale_factor AS "scaleFactor",
    retention_type AS "retentionType", retention_min AS "retentionMin",
    retention_max AS "retentionMax", tags, rollover_size_bytes AS "rolloverSizeBytes",
    timestamp_aggregation_timeout AS "timestampAggregationTimeout"`;

/** What a stream shows and its version (its entity tag). */
const STREAM_COLUMNS = `${STREAM_FIELDS}, ${versionColumns()}`;

const SELECT_STREAMS = `SELECT ${STREAM_COLUMNS} FROM streams`;

/**
 * `_` is a LIKE wildcard: escaped, the pattern means "starts with an underscore". Spelled as the
 * predicates of the partial name indexes (migration Pagination), so the planner uses them.
 */
const INTERNAL = `name LIKE '\\_%'`;
const USER = `name NOT LIKE '\\_%'`;

const WHERE_FILTER: Record<StreamFilter['kind'], string> = {
  user: USER,
  internal: INTERNAL,
  tag: `${USER} AND tags @> ARRAY[$2::text]`,
};

/** A stream to insert: its name, what owns it (an internal stream) and its configuration. */
interface NewStream {
  name: string;
  ownerStream: string | null;
  ownerReaderGroup: string | null;
  columns: ConfigurationColumns;
}

/** Each configuration column and its property: inserts and updates write them alike. */
const CONFIGURATION: [string, keyof ConfigurationColumns][] = [
  ['scaling_type', 'scalingType'],
  ['min_segments', 'minSegments'],
  ['target_rate', 'targetRate'],
  ['scale_factor', 'scaleFactor'],
  ['retention_type', 'retentionType'],
  ['retention_min', 'retentionMin'],
  ['retention_max', 'retentionMax'],
  ['tags', 'tags'],
  ['rollover_size_bytes', 'rolloverSizeBytes'],
  ['timestamp_aggregation_timeout', 'timestampAggregationTimeout'],
];

const INSERT_COLUMNS = [
  'scope_name',
  'name',
  'owner_stream',
  'owner_reader_group',
  'state',
  ...CONFIGURATION.map(([column]) => column),
];

const configurationValues = (columns: ConfigurationColumns): unknown[] =>
  CONFIGURATION.map(([, property]) => columns[property]);

/** `$1, $2, ...` for `count` values from `$first`. */
const placeholders = (first: number, count: number): string =>
  Array.from({ length: count }, (_, i) => `$${first + i}`).join(', ');

type TimesRow = Record<keyof StreamTimes, string>;

interface EpochRow {
  epoch: number;
  created_at: string;
}

interface SegmentRow {
  number: number;
  start_time: string;
  key_start: number;
  key_end: number;
  created_in: number;
  sealed_in: number | null;
}

const toEpoch = (row: EpochRow): Epoch => ({
  epoch: row.epoch,
  timestamp: Number(row.created_at),
});

const toSegment = (row: SegmentRow): SegmentRecord => ({
  number: row.number,
  startTime: Number(row.start_time),
  keyStart: row.key_start,
  keyEnd: row.key_end,
  createdIn: row.created_in,
  ...(row.sealed_in === null ? {} : { sealedIn: row.sealed_in }),
});

/**
 * A segment's life, created in `created_in` and sealed by `sealed_in` (or alive still): the
 * expression of the index of migration SegmentLives, spelled the same so the planner uses it.
 */
const LIFE = 'int4range(g.created_in, g.sealed_in)';

/**
 * The segments of stream ($1, $2) alive in epoch `epoch`, as the API shows them, in one JSON
 * list by keyStart: built by the database from rows (cheaper there than an object per row, and
 * for the service one JSON text to parse instead of four fields per row).
 */
const segmentsAliveAt = (epoch: string): string => `coalesce((
    SELECT json_agg(t ORDER BY t."keyStart") FROM (
      SELECT g.number, g.start_time AS "startTime", g.key_start AS "keyStart", g.key_end AS "keyEnd"
        FROM stream_segments g
       WHERE g.scope_name = $1 AND g.stream_name = $2 AND ${LIFE} @> ${epoch}) t), '[]')`;

/**
 * The numbers of the segments of stream ($1, $2) whose keys overlap those of segment `s` and
 * whose `column` is `epoch`: sealed by the epoch that opened `s` (its predecessors), or opened
 * by the epoch that sealed it (its successors). An index scan of that one epoch's segments.
 */
const overlapping = (column: 'sealed_in' | 'created_in', epoch: string): string => `ARRAY(
    SELECT g.number FROM stream_segments g
     WHERE g.scope_name = $1 AND g.stream_name = $2 AND g.${column} = ${epoch}
       AND g.key_start < s.key_end AND g.key_end > s.key_start
     ORDER BY g.number)`;

/** The epoch of a stream at a moment, with its active segments: what a scale starts from. */
export interface EpochState extends Epoch {
  /** Active in this epoch, by keyStart. */
  segments: Segment[];
}

/** The current epoch of a stream and the first segment number it has never used. */
export interface ScaleBase extends EpochState {
  nextNumber: number;
}

/** The epoch of a stream at a moment, and the stream's version as it is now. */
export interface SegmentsAt extends EpochState {
  revision: ResourceVersion;
}

/** One segment's whole life: when it was opened and sealed, and its neighbours in time. */
export interface SegmentLife extends Segment {
  createdInEpoch: number;
  sealedInEpoch?: number;
  sealedTime?: number;
  predecessors: number[];
  successors: number[];
}

/**
 * Every statement of the streams aggregate: streams, their epochs and segments, and the
 * segment numbering. Plain SQL (building each query through the ORM cost more CPU than running
 * it); each statement joins the current transaction, if any.
 */
@Injectable()
export class StreamsRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  async findOne(scope: string, name: string): Promise<Stream | undefined> {
    const [row] = await this.db.tx.query<VersionedRow[]>(
      `${SELECT_STREAMS} WHERE scope_name = $1 AND name = $2`,
      [scope, name],
    );
    return row && toStream(row);
  }

  /** Reads the stream and locks its row until the current transaction ends. */
  async lockOne(scope: string, name: string): Promise<Stream | undefined> {
    const [row] = await this.db.tx.query<VersionedRow[]>(
      `${SELECT_STREAMS} WHERE scope_name = $1 AND name = $2 FOR UPDATE`,
      [scope, name],
    );
    return row && toStream(row);
  }

  /**
   * The streams of a scope the filter selects, by name, a batch or a page after a name. One
   * query, a range scan of the filter's name index whatever the page's position.
   */
  async findByScope(
    scope: string,
    filter: StreamFilter,
    keyset: Keyset<string>,
  ): Promise<Stream[]> {
    const params: unknown[] = filter.kind === 'tag' ? [scope, filter.tag] : [scope];
    const { after, orderAndLimit } = keysetClauses(params, keyset);
    const rows = await this.db.tx.query<VersionedRow[]>(
      `${SELECT_STREAMS} WHERE scope_name = $1 AND ${WHERE_FILTER[filter.kind]} AND ${after}
        ${orderAndLimit}`,
      params,
    );
    return rows.map(toStream);
  }

  /**
   * Which of the streams (`scope/stream`) exist. Those found are locked against deletion (and
   * key changes) until the transaction ends.
   */
  async lockExisting(streams: { scope: string; stream: string }[]): Promise<Set<string>> {
    return this.existing(streams, 'FOR KEY SHARE OF s');
  }

  /** Which of `streams` exist now, as scoped names, without locking them (a dry run's read). */
  async findExisting(streams: { scope: string; stream: string }[]): Promise<Set<string>> {
    return this.existing(streams, '');
  }

  private async existing(
    streams: { scope: string; stream: string }[],
    lock: string,
  ): Promise<Set<string>> {
    const found = await this.db.tx.query<{ name: string }[]>(
      `SELECT s.scope_name || '/' || s.name AS name FROM streams s
         JOIN unnest($1::text[], $2::text[]) AS r (stream_scope, stream_name)
           ON s.scope_name = r.stream_scope AND s.name = r.stream_name
       ${lock}`,
      [streams.map((r) => r.scope), streams.map((r) => r.stream)],
    );
    return new Set(found.map((row) => row.name));
  }

  /**
   * The user streams of several scopes, by scope and name. With `lock`, they cannot change
   * until the current transaction ends.
   */
  async findUserStreamsIn(scopes: string[], lock: boolean): Promise<Stream[]> {
    const rows = await this.db.tx.query<VersionedRow[]>(
      `${SELECT_STREAMS} WHERE scope_name = ANY($1::text[]) AND ${WHERE_FILTER.user}
        ORDER BY scope_name, name${lock ? ' FOR NO KEY UPDATE' : ''}`,
      [scopes],
    );
    return rows.map(toStream);
  }

  async exists(scope: string, name: string): Promise<boolean> {
    const rows = await this.db.tx.query<unknown[]>(
      `SELECT 1 FROM streams WHERE scope_name = $1 AND name = $2`,
      [scope, name],
    );
    return rows.length > 0;
  }

  /**
   * Creates an active stream, its `_MARK` companion and the epoch 0 of each. A reader group's
   * `_RG` stream is created so too, owned by the group (and deleted with it).
   */
  async create(
    scope: string,
    name: string,
    config: StreamConfiguration,
    ownerReaderGroup: string | null = null,
  ): Promise<Stream> {
    const columns = configurationColumns(config);
    const mark = markStreamName(name);
    const [revision] = await translateViolations(
      {
        unique: () => new StreamExistsError(scope, name),
        foreignKey: () => new ScopeNotFoundError(scope),
      },
      () =>
        this.insert(scope, [
          { name, ownerStream: null, ownerReaderGroup, columns },
          {
            name: mark,
            ownerStream: name,
            ownerReaderGroup: null,
            columns: configurationColumns(INTERNAL_STREAM_CONFIGURATION),
          },
        ]),
    );
    const now = Date.now();
    await this.addEpoch(scope, name, 0, now, equalKeyRanges(config.scaling.minSegments));
    const markRanges = equalKeyRanges(INTERNAL_STREAM_CONFIGURATION.scaling.minSegments);
    await this.addEpoch(scope, mark, 0, now, markRanges);
    return { scopeName: scope, name, state: 'ACTIVE', revision, configuration: config };
  }

  /**
   * Inserts active streams in one statement (a stream and its companion go in together); the
   * versions of the new streams, in the order given.
   */
  insert(scope: string, streams: NewStream[]): Promise<ResourceVersion[]> {
    const width = INSERT_COLUMNS.length;
    const rows = streams.map((_, i) => `(${placeholders(i * width + 1, width)})`);
    return this.db.tx.query<ResourceVersion[]>(
      `INSERT INTO streams (${INSERT_COLUMNS.join(', ')}) VALUES ${rows.join(', ')}
       RETURNING ${versionColumns()}`,
      streams.flatMap((s) => [
        scope,
        s.name,
        s.ownerStream,
        s.ownerReaderGroup,
        'ACTIVE',
        ...configurationValues(s.columns),
      ]),
    );
  }

  /** Replaces every configuration column of a stream; its new version. */
  async updateConfiguration(
    scope: string,
    name: string,
    config: StreamConfiguration,
  ): Promise<ResourceVersion> {
    const set = CONFIGURATION.map(([column], i) => `${column} = $${i + 3}`).join(', ');
    return this.changed(
      `UPDATE streams SET ${set}, version = version + 1, updated_at = now()
        WHERE scope_name = $1 AND name = $2`,
      [scope, name, ...configurationValues(configurationColumns(config))],
      name,
    );
  }

  /** Seals a stream and its companion; the stream's new version. */
  seal(scope: string, name: string): Promise<ResourceVersion> {
    return this.changed(
      `UPDATE streams SET state = 'SEALED', version = version + 1, updated_at = now()
        WHERE scope_name = $1 AND name IN ($2, $3)`,
      [scope, name, markStreamName(name)],
      name,
    );
  }

  /** The stream with when it was created and last changed. */
  async findWithTimes(scope: string, name: string): Promise<(Stream & StreamTimes) | undefined> {
    const [row] = await this.db.tx.query<(VersionedRow & TimesRow)[]>(
      `SELECT ${STREAM_COLUMNS},
              (extract(epoch FROM created_at) * 1000)::bigint AS "createdAt",
              (extract(epoch FROM updated_at) * 1000)::bigint AS "updatedAt"
         FROM streams WHERE scope_name = $1 AND name = $2`,
      [scope, name],
    );
    if (!row) return undefined;
    const { createdAt, updatedAt, ...stream } = row;
    return { ...toStream(stream), createdAt: Number(createdAt), updatedAt: Number(updatedAt) };
  }

  /**
   * Deletes a stream; its companion, epochs and segments go with it (foreign key cascades), and
   * so does its place in the stream lists of the groups that read it (whose versions the
   * database moves: migration ReaderGroupVersionOnStreamDelete).
   */
  async delete(scope: string, name: string): Promise<void> {
    await this.db.tx.query(`DELETE FROM streams WHERE scope_name = $1 AND name = $2`, [
      scope,
      name,
    ]);
  }

  /** The latest epoch of a stream. */
  async currentEpoch(scope: string, stream: string): Promise<Epoch> {
    const [row] = await this.db.tx.query<EpochRow[]>(
      `SELECT epoch, created_at FROM stream_epochs
        WHERE scope_name = $1 AND stream_name = $2
        ORDER BY epoch DESC LIMIT 1`,
      [scope, stream],
    );
    return toEpoch(row);
  }

  /** The segments alive in epoch `epoch`: one index scan, whatever the history. */
  async segmentsAt(scope: string, stream: string, epoch: number): Promise<SegmentRecord[]> {
    const rows = await this.db.tx.query<SegmentRow[]>(
      `SELECT number, start_time, key_start, key_end, created_in, sealed_in
         FROM stream_segments g
        WHERE scope_name = $1 AND stream_name = $2 AND ${LIFE} @> $3::int
        ORDER BY number`,
      [scope, stream, epoch],
    );
    return rows.map(toSegment);
  }

  /**
   * The current epoch with its active segments, and the first number the stream has never used
   * (the caller holds the stream's row lock, or reads one snapshot). One statement.
   */
  async scaleBase(scope: string, stream: string): Promise<ScaleBase> {
    const [row] = await this.db.tx.query<(EpochRow & { next: number; segments: Segment[] })[]>(
      `SELECT e.epoch, e.created_at, n.next_number AS next, ${segmentsAliveAt('e.epoch')} AS segments
         FROM stream_epochs e
         JOIN segment_numbering n ON n.scope_name = $1 AND n.stream_name = $2
        WHERE e.scope_name = $1 AND e.stream_name = $2
        ORDER BY e.epoch DESC LIMIT 1`,
      [scope, stream],
    );
    return { ...toEpoch(row), nextNumber: row.next, segments: row.segments };
  }

  /**
   * The epoch in force at `at` (epoch 0 before the stream existed) with its segments, and the
   * stream's version; undefined when there is no stream. One statement: the epoch by its time,
   * then its segments by the life index, so its cost does not grow with the history.
   */
  async segmentsAtTime(scope: string, stream: string, at: number): Promise<SegmentsAt | undefined> {
    const [row] = await this.db.tx.query<
      (ResourceVersion & { epoch: number; created_at: string; segments: Segment[] })[]
    >(
      `SELECT ${versionColumns('s')}, e.epoch, e.created_at, ${segmentsAliveAt('e.epoch')} AS segments
         FROM streams s
         CROSS JOIN LATERAL (
           (SELECT epoch, created_at FROM stream_epochs
             WHERE scope_name = $1 AND stream_name = $2 AND created_at <= $3
             ORDER BY created_at DESC LIMIT 1)
           UNION ALL
           (SELECT epoch, created_at FROM stream_epochs
             WHERE scope_name = $1 AND stream_name = $2 AND epoch = 0)
           ORDER BY epoch DESC LIMIT 1) e
        WHERE s.scope_name = $1 AND s.name = $2`,
      [scope, stream, at],
    );
    if (!row) return undefined;
    const { created, version, segments } = row;
    return { ...toEpoch(row), segments, revision: { created, version } };
  }

  /**
   * A segment of the stream with its life and neighbours: predecessors, the segments of the
   * epoch before its own whose keys overlap its keys; successors, those of the epoch that sealed
   * it. Undefined when the stream never had that number. One statement, each part an index scan.
   */
  async segmentLife(
    scope: string,
    stream: string,
    number: number,
  ): Promise<SegmentLife | undefined> {
    const [row] = await this.db.tx.query<
      (SegmentRow & { sealed_time: string | null; predecessors: number[]; successors: number[] })[]
    >(
      `SELECT s.number, s.start_time, s.key_start, s.key_end, s.created_in, s.sealed_in,
              e.created_at AS sealed_time,
              ${overlapping('sealed_in', 's.created_in')} AS predecessors,
              ${overlapping('created_in', 's.sealed_in')} AS successors
         FROM stream_segments s
         LEFT JOIN stream_epochs e
           ON e.scope_name = $1 AND e.stream_name = $2 AND e.epoch = s.sealed_in
        WHERE s.scope_name = $1 AND s.stream_name = $2 AND s.number = $3`,
      [scope, stream, number],
    );
    if (!row) return undefined;
    return {
      number: row.number,
      keyStart: row.key_start,
      keyEnd: row.key_end,
      startTime: Number(row.start_time),
      ...(row.sealed_time === null ? {} : { sealedTime: Number(row.sealed_time) }),
      createdInEpoch: row.created_in,
      ...(row.sealed_in === null ? {} : { sealedInEpoch: row.sealed_in }),
      predecessors: row.predecessors,
      successors: row.successors,
    };
  }

  /**
   * Writes epoch `epoch` at `time`: the segments numbered `sealed` are sealed by it, and new
   * ones over `ranges` open in it, numbered on from the stream's numbering. The caller holds the
   * stream's row lock, so epochs are written one at a time. The first new number.
   */
  async scale(
    scope: string,
    stream: string,
    epoch: number,
    time: number,
    sealed: number[],
    ranges: KeyRange[],
  ): Promise<number> {
    return this.addEpoch(scope, stream, epoch, time, ranges, sealed);
  }

  /** Moves the stream's version on (a change of its segments); the new one. */
  touch(scope: string, name: string): Promise<ResourceVersion> {
    return this.changed(
      `UPDATE streams SET version = version + 1 WHERE scope_name = $1 AND name = $2`,
      [scope, name],
      name,
    );
  }

  /**
   * The epoch in force at `from` and those created in (from, to]: all of them, or the first
   * `take` created in (from, to] (the page needs at most `take` in all).
   */
  async epochsAround(
    scope: string,
    stream: string,
    from: number,
    to: number,
    take?: number,
  ): Promise<Epoch[]> {
    const rows = await this.db.tx.query<EpochRow[]>(
      `(SELECT epoch, created_at FROM stream_epochs
         WHERE scope_name = $1 AND stream_name = $2 AND created_at <= $3
         ORDER BY created_at DESC LIMIT 1)
       UNION ALL
       (SELECT epoch, created_at FROM stream_epochs
         WHERE scope_name = $1 AND stream_name = $2 AND created_at > $3 AND created_at <= $4
         ORDER BY created_at LIMIT $5)`,
      [scope, stream, from, to, take ?? null],
    );
    return rows.map(toEpoch);
  }

  /**
   * Epoch `first` and the ones after it created up to `to`, oldest first, at most `take`: a page
   * of the window, led by the previous page's last epoch. Epoch numbers grow with time, so this
   * is one range scan of the key.
   */
  async epochsFrom(
    scope: string,
    stream: string,
    first: number,
    to: number,
    take: number,
  ): Promise<Epoch[]> {
    const rows = await this.db.tx.query<EpochRow[]>(
      `SELECT epoch, created_at FROM stream_epochs
        WHERE scope_name = $1 AND stream_name = $2 AND epoch >= $3 AND created_at <= $4
        ORDER BY epoch LIMIT $5`,
      [scope, stream, first, to, take],
    );
    return rows.map(toEpoch);
  }

  /**
   * The segments alive in any of epochs `first` to `last`: one scan of the life index, whatever
   * the history before and after them.
   */
  async segmentsOf(
    scope: string,
    stream: string,
    first: number,
    last: number,
  ): Promise<SegmentRecord[]> {
    const rows = await this.db.tx.query<SegmentRow[]>(
      `SELECT number, start_time, key_start, key_end, created_in, sealed_in FROM stream_segments g
        WHERE scope_name = $1 AND stream_name = $2 AND ${LIFE} && int4range($3, $4, '[]')`,
      [scope, stream, first, last],
    );
    return rows.map(toSegment);
  }

  /** Runs an update that bumps the versions of the streams it changes; the new one of `name`. */
  private async changed(sql: string, params: unknown[], name: string): Promise<ResourceVersion> {
    const rows = await this.db.tx.query<(ResourceVersion & { name: string })[]>(
      `WITH changed AS (${sql} RETURNING name, ${versionColumns()}) SELECT * FROM changed`,
      params,
    );
    const { created, version } = rows.find((row) => row.name === name)!;
    return { created, version };
  }

  /**
   * Writes epoch `epoch` at `time`: seals the segments numbered `sealed`, and opens new segments
   * over `ranges`, numbered on from the stream's numbering (which outlives the stream itself).
   * One statement, one round trip; the first new number.
   */
  private async addEpoch(
    scope: string,
    stream: string,
    epoch: number,
    time: number,
    ranges: KeyRange[],
    sealed: number[] = [],
  ): Promise<number> {
    const [row] = await this.db.tx.query<{ first: number }[]>(
      `WITH numbering AS (
         INSERT INTO segment_numbering AS n (scope_name, stream_name, next_number)
         VALUES ($1, $2, $5::int)
         ON CONFLICT (scope_name, stream_name)
           DO UPDATE SET next_number = n.next_number + EXCLUDED.next_number
         RETURNING n.next_number - $5::int AS first
       ), sealed AS (
         UPDATE stream_segments SET sealed_in = $3
          WHERE scope_name = $1 AND stream_name = $2 AND number = ANY($8::int[])
       ), epoch AS (
         INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at)
         VALUES ($1, $2, $3, $4)
       ), segments AS (
         INSERT INTO stream_segments
           (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
         SELECT $1, $2, numbering.first + r.i::int - 1, $3, $4, r.key_start, r.key_end
           FROM numbering,
                unnest($6::float8[], $7::float8[]) WITH ORDINALITY AS r (key_start, key_end, i)
       )
       SELECT first FROM numbering`,
      [
        scope,
        stream,
        epoch,
        time,
        ranges.length,
        ranges.map((r) => r.keyStart),
        ranges.map((r) => r.keyEnd),
        sealed,
      ],
    );
    return row.first;
  }
}
