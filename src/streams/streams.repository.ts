import { Injectable } from '@nestjs/common';
import { markStreamName } from '../common/names';
import type { Keyset } from '../common/pagination/paginator';
import { translateViolations } from '../database/constraint-violations';
import type { Db } from '../database/db';
import { InjectDb } from '../database/db';
import { versionColumns } from '../database/version-columns';
import type { ResourceVersion } from '../common/conditional/resource-version';
import { equalKeyRanges } from '../scaling/key-ranges';
import { Epoch, SegmentRecord } from '../scaling/scaling-history';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import { INTERNAL_STREAM_CONFIGURATION, StreamConfiguration } from './stream-configuration';
import { StreamFilter } from './stream-filter';
import { StreamExistsError } from './stream.errors';
import type { Stream, StreamTimes } from './stream';
import { configurationColumns, streamOf } from './stream-columns';
import type { ConfigurationColumns, StreamRow } from './stream-columns';

/** A row as selected: the stream's columns and its version. */
type VersionedRow = StreamRow & ResourceVersion;

/** The stream of a row; the one object `streamOf` makes is completed, not copied (hot in lists). */
const toStream = (row: VersionedRow): Stream =>
  Object.assign(streamOf(row), { revision: { created: row.created, version: row.version } });

const STREAM_COLUMNS = `scope_name AS "scopeName", name, state, scaling_type AS "scalingType",
    min_segments AS "minSegments", target_rate AS "targetRate", scale_factor AS "scaleFactor",
    retention_type AS "retentionType", retention_min AS "retentionMin",
    retention_max AS "retentionMax", tags, rollover_size_bytes AS "rolloverSizeBytes",
    timestamp_aggregation_timeout AS "timestampAggregationTimeout", ${versionColumns()}`;

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

/** A stream with what describing it adds: its times and the groups that read it. */
export type DescribedStream = Stream & StreamTimes & { readerGroups: string[] };

type DescribedRow = Record<keyof StreamTimes, string> & { readerGroups: string[] };

interface EpochRow {
  epoch: number;
  created_at: string;
  active_segments: number[];
}

interface SegmentRow {
  number: number;
  start_time: string;
  key_start: number;
  key_end: number;
  created_in: number;
  sealed_in: number | null;
}

/** The latest epoch of a stream: its number, time and active segments. */
export interface CurrentEpoch extends Epoch {
  activeSegments: number[];
}

const toEpoch = (row: EpochRow): CurrentEpoch => ({
  epoch: row.epoch,
  timestamp: Number(row.created_at),
  activeSegments: row.active_segments,
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
   * The streams of a scope the filter selects, by name: all of them, or a page after a name.
   * One query, a range scan of the filter's name index whatever the page's position.
   */
  async findByScope(scope: string, filter: StreamFilter, page?: Keyset<string>): Promise<Stream[]> {
    const params: unknown[] = filter.kind === 'tag' ? [scope, filter.tag] : [scope];
    const after = page?.after === undefined ? '' : `AND name > $${params.push(page.after)}`;
    const rows = await this.db.tx.query<VersionedRow[]>(
      `${SELECT_STREAMS} WHERE scope_name = $1 AND ${WHERE_FILTER[filter.kind]} ${after}
        ORDER BY name LIMIT $${params.push(page?.take ?? null)}`,
      params,
    );
    return rows.map(toStream);
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
    await this.addEpoch(scope, name, 0, config.scaling.minSegments, now);
    await this.addEpoch(scope, mark, 0, INTERNAL_STREAM_CONFIGURATION.scaling.minSegments, now);
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

  /**
   * The stream with when it was created and last changed, and the reader groups that read it
   * (`scope/group`, by name), in one query.
   */
  async findDescribed(scope: string, name: string): Promise<DescribedStream | undefined> {
    const [row] = await this.db.tx.query<(VersionedRow & DescribedRow)[]>(
      `SELECT ${STREAM_COLUMNS},
              (extract(epoch FROM created_at) * 1000)::bigint AS "createdAt",
              (extract(epoch FROM updated_at) * 1000)::bigint AS "updatedAt",
              ARRAY(SELECT g.scope_name || '/' || g.reader_group FROM reader_group_streams g
                     WHERE g.stream_scope = streams.scope_name AND g.stream_name = streams.name
                     ORDER BY g.scope_name, g.reader_group) AS "readerGroups"
         FROM streams WHERE scope_name = $1 AND name = $2`,
      [scope, name],
    );
    if (!row) return undefined;
    const { createdAt, updatedAt, readerGroups, ...stream } = row;
    return {
      ...toStream(stream),
      createdAt: Number(createdAt),
      updatedAt: Number(updatedAt),
      readerGroups,
    };
  }

  /**
   * Deletes a stream; its companion, epochs and segments go with it (foreign key cascades), and
   * so does its place in the stream lists of the groups that read it. Those groups change, so
   * their versions move in this same statement (the one write here to another aggregate's table).
   */
  async delete(scope: string, name: string): Promise<void> {
    await this.db.tx.query(
      `WITH readers AS (
         UPDATE reader_groups g SET version = g.version + 1
           FROM reader_group_streams r
          WHERE r.stream_scope = $1 AND r.stream_name = $2
            AND g.scope_name = r.scope_name AND g.name = r.reader_group)
       DELETE FROM streams WHERE scope_name = $1 AND name = $2`,
      [scope, name],
    );
  }

  /** The latest epoch of a stream; its segments are exactly the active ones. */
  async currentEpoch(scope: string, stream: string): Promise<CurrentEpoch> {
    const [row] = await this.db.tx.query<EpochRow[]>(
      `SELECT epoch, created_at, active_segments FROM stream_epochs
        WHERE scope_name = $1 AND stream_name = $2
        ORDER BY epoch DESC LIMIT 1`,
      [scope, stream],
    );
    return toEpoch(row);
  }

  /**
   * Seals the active segments of `current` and writes the next epoch at `time` with `count`
   * equal segments. The caller holds the stream's row lock, so epochs are written one at a time.
   */
  async rescale(
    scope: string,
    stream: string,
    current: CurrentEpoch,
    count: number,
    time: number,
  ): Promise<void> {
    const epoch = current.epoch + 1;
    await this.db.tx.query(
      `UPDATE stream_segments SET sealed_in = $3
        WHERE scope_name = $1 AND stream_name = $2 AND number = ANY($4::int[])`,
      [scope, stream, epoch, current.activeSegments],
    );
    await this.addEpoch(scope, stream, epoch, count, time);
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
  ): Promise<CurrentEpoch[]> {
    const rows = await this.db.tx.query<EpochRow[]>(
      `(SELECT epoch, created_at, active_segments FROM stream_epochs
         WHERE scope_name = $1 AND stream_name = $2 AND created_at <= $3
         ORDER BY created_at DESC LIMIT 1)
       UNION ALL
       (SELECT epoch, created_at, active_segments FROM stream_epochs
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
  ): Promise<CurrentEpoch[]> {
    const rows = await this.db.tx.query<EpochRow[]>(
      `SELECT epoch, created_at, active_segments FROM stream_epochs
        WHERE scope_name = $1 AND stream_name = $2 AND epoch >= $3 AND created_at <= $4
        ORDER BY epoch LIMIT $5`,
      [scope, stream, first, to, take],
    );
    return rows.map(toEpoch);
  }

  /**
   * The segments of epochs `first` to `last`: those active at the first (by number) and those
   * created later (by creation epoch); disjoint halves, each a plain index lookup.
   */
  async segmentsOf(
    scope: string,
    stream: string,
    activeAtFirst: number[],
    first: number,
    last: number,
  ): Promise<SegmentRecord[]> {
    const rows = await this.db.tx.query<SegmentRow[]>(
      `SELECT number, start_time, key_start, key_end, created_in, sealed_in FROM stream_segments
        WHERE scope_name = $1 AND stream_name = $2 AND number = ANY($3::int[])
       UNION ALL
       SELECT number, start_time, key_start, key_end, created_in, sealed_in FROM stream_segments
        WHERE scope_name = $1 AND stream_name = $2 AND created_in > $4 AND created_in <= $5`,
      [scope, stream, activeAtFirst, first, last],
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
   * Writes epoch `epoch` at `time` with `count` new equal segments, numbered on from the stream's
   * numbering (which outlives the stream itself), in one statement.
   */
  private async addEpoch(
    scope: string,
    stream: string,
    epoch: number,
    count: number,
    time: number,
  ): Promise<void> {
    const ranges = equalKeyRanges(count);
    await this.db.tx.query(
      `WITH numbering AS (
         INSERT INTO segment_numbering AS n (scope_name, stream_name, next_number)
         VALUES ($1, $2, $5::int)
         ON CONFLICT (scope_name, stream_name)
           DO UPDATE SET next_number = n.next_number + EXCLUDED.next_number
         RETURNING n.next_number - $5::int AS first
       ), epoch AS (
         INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at, active_segments)
         SELECT $1, $2, $3, $4, ARRAY(SELECT generate_series(first, first + $5::int - 1))
           FROM numbering
       )
       INSERT INTO stream_segments
         (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
       SELECT $1, $2, numbering.first + r.i::int - 1, $3, $4, r.key_start, r.key_end
         FROM numbering,
              unnest($6::float8[], $7::float8[]) WITH ORDINALITY AS r (key_start, key_end, i)`,
      [
        scope,
        stream,
        epoch,
        time,
        count,
        ranges.map((r) => r.keyStart),
        ranges.map((r) => r.keyEnd),
      ],
    );
  }
}
