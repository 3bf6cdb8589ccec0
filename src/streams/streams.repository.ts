import { Injectable } from '@nestjs/common';
import { LessThanOrEqual, MoreThanOrEqual, type SelectQueryBuilder } from 'typeorm';
import { markStreamName } from '../common/names';
import type { ResourceVersion } from '../conditional/resource-version';
import { createdMicros, RETURNING_VERSION, versionOf } from '../database/column-transformers';
import { translateViolations } from '../database/constraint-violations';
import type { Keyset } from '../database/keyset';
import { queryOnConnection } from '../database/on-connection';
import { sendWithNext } from '../database/with-commit';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import {
  InsertRows,
  KeysetBuiltOnce,
  QueryBuiltOnce,
  ReadByKey,
  UpdateRows,
} from '../database/statements-built-once';
import { equalKeyRanges, KeyRange } from '../scaling/key-ranges';
import type { Segment } from '../scaling/manual-scale';
import { Epoch, SegmentRecord } from '../scaling/scaling-history';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import { StreamEpochEntity } from './stream-epoch.entity';
import { StreamSegmentEntity } from './stream-segment.entity';
import { INTERNAL_STREAM_CONFIGURATION, StreamConfiguration } from './stream-configuration';
import {
  CONFIGURATION_PROPERTIES,
  configurationColumns,
  ConfigurationColumns,
  LISTED_PROPERTIES,
  ListedStream,
  listedStreamOf,
  StreamEntity,
  streamOf,
  STREAM_PROPERTIES,
} from './stream.entity';
import { StreamFilter } from './stream-filter';
import { StreamExistsError } from './stream.errors';
import type { Stream, StreamTimes } from './stream';

/** The read of every GET of a stream (docs/ARCHITECTURE.md, "Statements built once"). */
const BY_NAME = new ReadByKey(StreamEntity, ['scopeName', 'name'], {
  properties: STREAM_PROPERTIES,
});

/** The read that locks the stream a change is about. */
const LOCKED_BY_NAME = new ReadByKey(StreamEntity, ['scopeName', 'name'], {
  properties: STREAM_PROPERTIES,
  lock: 'FOR UPDATE',
});

/** Which of some streams exist, by scope and name (a reader group's list, say). */
const existingStreams = (lock: boolean) =>
  new QueryBuiltOnce(
    (manager) => {
      const query = manager
        .getRepository(StreamEntity)
        .createQueryBuilder('s')
        .select('s.scopeName', 'scopeName')
        .addSelect('s.name', 'name')
        .where('(s.scope_name, s.name) IN (SELECT * FROM unnest(:scopes::text[], :names::text[]))');
      return lock ? query.setLock('for_key_share') : query;
    },
    ['scopes', 'names'],
  );
const EXISTING = existingStreams(false);
const LOCKED_EXISTING = existingStreams(true);

/**
 * A new epoch of streams: their numbering moved on, their epoch, their new segments; with
 * ADD_EPOCHS_SEALING, the segments it seals too ($10, $11: stream and number of each). A create
 * seals nothing and sends the statement without that part: a part that matched no row would
 * still be planned, and with the statistics of a scope that grew since its last ANALYZE the
 * planner read every segment of the scope to find none, per create (BENCHMARKS.md, "The data
 * layer's cost"). The sealing part names each segment by its key, so that the primary key's
 * index finds it whatever the statistics say.
 */
const epochsSql = (sealing: string) => `WITH input AS (
         SELECT * FROM unnest($4::text[], $5::int[]) AS i (stream_name, count)
       ), numbering AS (
         INSERT INTO segment_numbering AS n (scope_name, stream_name, next_number)
         SELECT $1, stream_name, count FROM input
         ON CONFLICT (scope_name, stream_name)
           DO UPDATE SET next_number = n.next_number + EXCLUDED.next_number
         RETURNING n.stream_name, n.next_number
       ), firsts AS (
         SELECT stream_name, numbering.next_number - input.count AS first
           FROM numbering JOIN input USING (stream_name)
       ),${sealing} epochs AS (
         INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at)
         SELECT $1, stream_name, $2, $3 FROM input
       ), segments AS (
         INSERT INTO stream_segments
           (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
         SELECT $1, r.stream_name, firsts.first + r.i - 1, $2, $3, r.key_start, r.key_end
           FROM unnest($6::text[], $7::float8[], $8::float8[], $9::int[])
                  AS r (stream_name, key_start, key_end, i)
           JOIN firsts USING (stream_name)
       )
       SELECT stream_name, first FROM firsts`;
const ADD_EPOCHS = epochsSql('');
const ADD_EPOCHS_SEALING = epochsSql(` sealed AS (
         UPDATE stream_segments g SET sealed_in = $2
           FROM unnest($10::text[], $11::int[]) AS x (stream_name, number)
          WHERE g.scope_name = $1 AND g.stream_name = ANY($10::text[])
            AND g.number = ANY($11::int[])
            AND g.stream_name = x.stream_name AND g.number = x.number
       ),`);

/** A stream's next epoch: its number and time, the segments it seals, the ranges it opens. */
export interface NextEpoch {
  epoch: number;
  time: number;
  sealed: number[];
  ranges: KeyRange[];
}

/** A stream's part of an epoch written: its new segments' ranges, the segments it seals. */
interface EpochsOf {
  stream: string;
  ranges: KeyRange[];
  sealed?: number[];
}

/**
 * The statement that writes epoch `epoch` at `time` of each of `streams`: seals its segments
 * numbered `sealed`, and opens new segments over its `ranges`, numbered on from its numbering
 * (which outlives the stream itself). One statement (its writes chained by data-modifying WITH
 * queries), so a scale, and the epochs 0 of a new stream and its companion, are one statement;
 * it answers the first new number of each stream.
 */
function epochsWritten(
  scope: string,
  epoch: number,
  time: number,
  streams: EpochsOf[],
): { sql: string; values: unknown[] } {
  const ranges = streams.flatMap(({ stream, ranges }) =>
    ranges.map((range, i) => ({ stream, ...range, i: i + 1 })),
  );
  const sealed = streams.flatMap(({ stream, sealed = [] }) =>
    sealed.map((number) => ({ stream, number })),
  );
  const values = [
    scope,
    epoch,
    time,
    streams.map((s) => s.stream),
    streams.map((s) => s.ranges.length),
    ranges.map((r) => r.stream),
    ranges.map((r) => r.keyStart),
    ranges.map((r) => r.keyEnd),
    ranges.map((r) => r.i),
  ];
  return sealed.length > 0
    ? {
        sql: ADD_EPOCHS_SEALING,
        values: [...values, sealed.map((s) => s.stream), sealed.map((s) => s.number)],
      }
    : { sql: ADD_EPOCHS, values };
}

/** What a change of a stream and its companion sets besides its columns, and answers. */
const STREAM_CHANGE = {
  also: 'version = version + 1, updated_at = now()',
  where: 'scope_name = $1 AND name = ANY($2::text[])',
  returning: `name, ${RETURNING_VERSION}`,
};
const SEAL = new UpdateRows(StreamEntity, ['state'], STREAM_CHANGE);
const TOUCH = new UpdateRows(StreamEntity, [], STREAM_CHANGE);

/** The insert of every create of a stream, with its companion. */
const INSERT = new InsertRows(
  StreamEntity,
  ['scopeName', 'name', 'ownerStream', 'ownerReaderGroup', 'state', ...CONFIGURATION_PROPERTIES],
  RETURNING_VERSION,
);

/**
 * `_` is a LIKE wildcard: escaped, the pattern means "starts with an underscore". Spelled as the
 * predicates of the partial name indexes (migration Pagination), so the planner uses them.
 */
const INTERNAL = `s.name LIKE '\\_%'`;
const USER = `s.name NOT LIKE '\\_%'`;

/**
 * The read of a scope's streams that `where` keeps, by name: a batch of a whole list or a page,
 * each a range scan of the filter's name index whatever its position.
 */
const listedWhere = (where: string) =>
  new KeysetBuiltOnce(
    (manager) =>
      manager
        .getRepository(StreamEntity)
        .createQueryBuilder('s')
        .where('s.scopeName = :scope')
        .andWhere(where),
    's.name',
    LISTED_PROPERTIES,
    ['scope', 'tag'],
  );

/** What each filter keeps of a scope's streams. */
const LISTED: Record<StreamFilter['kind'], ReturnType<typeof listedWhere>> = {
  user: listedWhere(USER),
  internal: listedWhere(INTERNAL),
  tag: listedWhere(`${USER} AND s.tags @> ARRAY[:tag]::text[]`),
};

/** A stream to insert: its name, what owns it (an internal stream) and its configuration. */
interface NewStream {
  name: string;
  ownerStream: string | null;
  ownerReaderGroup: string | null;
  columns: ConfigurationColumns;
}

const toEpoch = (row: StreamEpochEntity): Epoch => ({ epoch: row.epoch, timestamp: row.createdAt });

const toSegment = (row: StreamSegmentEntity): SegmentRecord => ({
  number: row.number,
  startTime: row.startTime,
  keyStart: row.keyStart,
  keyEnd: row.keyEnd,
  createdIn: row.createdIn,
  ...(row.sealedIn === null ? {} : { sealedIn: row.sealedIn }),
});

/**
 * A segment's life, created in `created_in` and sealed by `sealed_in` (or alive still): the
 * expression of the GiST index of migration SegmentLives, spelled the same so the planner uses
 * it. `g` is the segments' alias.
 */
const LIFE = 'int4range(g.created_in, g.sealed_in)';

/**
 * The segments of stream (`scope`, `stream`: SQL, `$1` and `$2` by default) alive in epoch
 * `epoch`, as the API shows them, in one JSON list by keyStart: built by the database from rows
 * (cheaper there than an object per row, and for the service one JSON text to parse instead of
 * four fields per row).
 */
const segmentsAliveAt = (epoch: string, scope = '$1', stream = '$2'): string => `coalesce((
    SELECT json_agg(t ORDER BY t."keyStart") FROM (
      SELECT g.number, g.start_time AS "startTime", g.key_start AS "keyStart", g.key_end AS "keyEnd"
        FROM stream_segments g
       WHERE g.scope_name = ${scope} AND g.stream_name = ${stream} AND ${LIFE} @> ${epoch}) t), '[]')`;

/**
 * The {@link ScaleBase} of stream (`scope`, `stream`: SQL) as one JSON object: its current epoch
 * with the segments alive in it, and the first number it has never used.
 */
const scaleBaseOf = (scope: string, stream: string): string => `(
    SELECT json_build_object('epoch', e.epoch, 'timestamp', e.created_at,
                             'nextNumber', n.next_number,
                             'segments', ${segmentsAliveAt('e.epoch', scope, stream)})
      FROM stream_epochs e
      JOIN segment_numbering n ON n.scope_name = ${scope} AND n.stream_name = ${stream}
     WHERE e.scope_name = ${scope} AND e.stream_name = ${stream}
     ORDER BY e.epoch DESC LIMIT 1)`;

/**
 * A PUT's update, answering besides what a rescale would start from: the update and that read
 * are one round trip (BENCHMARKS.md, "The data layer's cost"). The updated row names the stream.
 */
const UPDATE_CONFIGURATION = new UpdateRows(StreamEntity, CONFIGURATION_PROPERTIES, {
  ...STREAM_CHANGE,
  returning: `${STREAM_CHANGE.returning}, ${scaleBaseOf('streams.scope_name', 'streams.name')} AS base`,
});

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
 * segment numbering, through their entities' repositories; each joins the current transaction,
 * if any. Four statements are SQL through `query`, each saying why: what a scale writes, and the
 * reads built on the segments' GiST life index with `json_agg` and `ARRAY` subqueries.
 */
@Injectable()
export class StreamsRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get streams() {
    return this.db.tx.getRepository(StreamEntity);
  }

  private get epochs() {
    return this.db.tx.getRepository(StreamEpochEntity);
  }

  private get segments() {
    return this.db.tx.getRepository(StreamSegmentEntity);
  }

  async findOne(scope: string, name: string): Promise<Stream | undefined> {
    const stream = await BY_NAME.one(this.db.tx, [scope, name]);
    return stream ? streamOf(stream) : undefined;
  }

  /** Reads the stream and locks its row until the current transaction ends. */
  async lockOne(scope: string, name: string): Promise<Stream | undefined> {
    const stream = await LOCKED_BY_NAME.one(this.db.tx, [scope, name]);
    return stream ? streamOf(stream) : undefined;
  }

  /**
   * The streams of a scope the filter selects, by name, a batch or a page after a name. One
   * query, a range scan of the filter's name index whatever the page's position.
   */
  async findByScope(
    scope: string,
    filter: StreamFilter,
    keyset: Keyset<string>,
  ): Promise<ListedStream[]> {
    const tag = filter.kind === 'tag' ? filter.tag : undefined;
    const rows = await LISTED[filter.kind].rows(this.db.tx, { scope, tag }, keyset);
    return rows.map(listedStreamOf);
  }

  /** All the streams of a scope the filter selects, by name, `size` at a time (one portal). */
  async *allByScope(
    scope: string,
    filter: StreamFilter,
    size: number,
  ): AsyncGenerator<ListedStream[]> {
    const tag = filter.kind === 'tag' ? filter.tag : undefined;
    const rows = LISTED[filter.kind].batches(this.db.tx, { scope, tag }, size, (row) => row.name);
    for await (const batch of rows) yield batch.map(listedStreamOf);
  }

  /**
   * Which of the streams (`scope/stream`) exist. Those found are locked against deletion (and
   * key changes) until the transaction ends.
   */
  lockExisting(streams: { scope: string; stream: string }[]): Promise<Set<string>> {
    return this.existing(streams, true);
  }

  /** Which of `streams` exist now, as scoped names, without locking them (a dry run's read). */
  findExisting(streams: { scope: string; stream: string }[]): Promise<Set<string>> {
    return this.existing(streams, false);
  }

  private async existing(
    streams: { scope: string; stream: string }[],
    lock: boolean,
  ): Promise<Set<string>> {
    if (streams.length === 0) return new Set();
    const found = await (lock ? LOCKED_EXISTING : EXISTING).rows<{
      scopeName: string;
      name: string;
    }>(this.db.tx, {
      scopes: streams.map((ref) => ref.scope),
      names: streams.map((ref) => ref.stream),
    });
    return new Set(found.map((s) => `${s.scopeName}/${s.name}`));
  }

  /**
   * The user streams of several scopes, by scope and name. With `lock`, they cannot change
   * until the current transaction ends.
   */
  async findUserStreamsIn(scopes: string[], lock: boolean): Promise<Stream[]> {
    const query = this.streams
      .createQueryBuilder('s')
      .where('s.scopeName = ANY(:scopes)', { scopes })
      .andWhere(USER)
      .orderBy('s.scopeName')
      .addOrderBy('s.name');
    if (lock) query.setLock('for_no_key_update');
    return (await query.getMany()).map(streamOf);
  }

  exists(scope: string, name: string): Promise<boolean> {
    return this.streams.existsBy({ scopeName: scope, name });
  }

  /**
   * The active segments of each active user stream of the scopes, by scoped name
   * (`scope/stream`), in one grouped read; a stream without active segments is absent.
   */
  async activeSegmentCounts(scopes: string[]): Promise<Map<string, number>> {
    if (scopes.length === 0) return new Map();
    const rows = await this.activeUserSegments()
      .andWhere('g.scope_name = ANY(:scopes)', { scopes })
      .select(`g.scope_name || '/' || g.stream_name`, 'stream')
      .addSelect('count(*)::int', 'count')
      .groupBy('g.scope_name')
      .addGroupBy('g.stream_name')
      .getRawMany<{ stream: string; count: number }>();
    return new Map(rows.map((row) => [row.stream, row.count]));
  }

  /** The active segments of active user streams: what a policy's segment limits count. */
  private activeUserSegments() {
    return this.segments
      .createQueryBuilder('g')
      .innerJoin(StreamEntity, 's', 's.scope_name = g.scope_name AND s.name = g.stream_name')
      .where('g.sealed_in IS NULL')
      .andWhere(`s.state = 'ACTIVE'`)
      .andWhere(USER);
  }

  /**
   * Creates an active stream, its `_MARK` companion and the epoch 0 of each (written with the
   * transaction's next statement: nothing here reads them). A reader group's `_RG` stream is
   * created so too, owned by the group (and deleted with it).
   */
  async create(
    scope: string,
    name: string,
    config: StreamConfiguration,
    ownerReaderGroup: string | null = null,
  ): Promise<Stream> {
    const mark = markStreamName(name);
    const [revision] = await translateViolations(
      {
        unique: () => new StreamExistsError(scope, name),
        foreignKey: () => new ScopeNotFoundError(scope),
      },
      () =>
        this.insert(scope, [
          { name, ownerStream: null, ownerReaderGroup, columns: configurationColumns(config) },
          {
            name: mark,
            ownerStream: name,
            ownerReaderGroup: null,
            columns: configurationColumns(INTERNAL_STREAM_CONFIGURATION),
          },
        ]),
    );
    await this.writeEpochs(scope, 0, Date.now(), [
      { stream: name, ranges: equalKeyRanges(config.scaling.minSegments) },
      {
        stream: mark,
        ranges: equalKeyRanges(INTERNAL_STREAM_CONFIGURATION.scaling.minSegments),
      },
    ]);
    return { scopeName: scope, name, state: 'ACTIVE', revision, configuration: config };
  }

  /**
   * Inserts active streams in one statement (a stream and its companion go in together); the
   * versions of the new streams, in the order given.
   */
  async insert(scope: string, streams: NewStream[]): Promise<ResourceVersion[]> {
    return INSERT.run<ResourceVersion>(
      this.db.tx,
      streams.map((s) => ({
        scopeName: scope,
        name: s.name,
        ownerStream: s.ownerStream,
        ownerReaderGroup: s.ownerReaderGroup,
        state: 'ACTIVE' as const,
        ...s.columns,
      })),
    );
  }

  /**
   * Replaces every configuration column of a stream (the caller holds its row lock): its new
   * version, and its current epoch with what a rescale would start from.
   */
  async updateConfiguration(
    scope: string,
    name: string,
    config: StreamConfiguration,
  ): Promise<{ revision: ResourceVersion; base: ScaleBase }> {
    const [row] = await UPDATE_CONFIGURATION.run<ResourceVersion & { base: ScaleBase }>(
      this.db.tx,
      configurationColumns(config),
      [scope, [name]],
    );
    return {
      revision: versionOf(row),
      base: row.base,
    };
  }

  /** Seals a stream and its companion; the stream's new version. */
  seal(scope: string, name: string): Promise<ResourceVersion> {
    return this.changed(SEAL, scope, [name, markStreamName(name)], { state: 'SEALED' }, name);
  }

  /** The stream with when it was created and last changed. */
  async findWithTimes(scope: string, name: string): Promise<(Stream & StreamTimes) | undefined> {
    const stream = await this.streams.findOneBy({ scopeName: scope, name });
    if (!stream) return undefined;
    return {
      ...streamOf(stream),
      createdAt: stream.createdAt.getTime(),
      updatedAt: stream.updatedAt.getTime(),
    };
  }

  /**
   * Deletes a stream; its companion, epochs and segments go with it (foreign key cascades), and
   * so does its place in the stream lists of the groups that read it (whose versions the
   * database moves: migration ReaderGroupVersionOnStreamDelete).
   */
  async delete(scope: string, name: string): Promise<void> {
    await this.streams.delete({ scopeName: scope, name });
  }

  /** The latest epoch of a stream. */
  async currentEpoch(scope: string, stream: string): Promise<Epoch> {
    const epoch = await this.epochs.findOneOrFail({
      where: { scopeName: scope, streamName: stream },
      order: { epoch: 'DESC' },
    });
    return toEpoch(epoch);
  }

  /** The segments alive in epoch `epoch`: one scan of the life index, whatever the history. */
  async segmentsAt(scope: string, stream: string, epoch: number): Promise<SegmentRecord[]> {
    const segments = await this.segmentsOfStream(scope, stream)
      .andWhere(`${LIFE} @> :epoch::int`, { epoch })
      .orderBy('g.number')
      .getMany();
    return segments.map(toSegment);
  }

  /**
   * The current epoch with its active segments, and the first number the stream has never used
   * (the caller holds the stream's row lock, or reads one snapshot). One statement through
   * `query`: the segments come as one `json_agg` list, read through the life index.
   */
  async scaleBase(scope: string, stream: string): Promise<ScaleBase> {
    const [{ base }] = await this.db.tx.query<{ base: ScaleBase }[]>(
      `SELECT ${scaleBaseOf('$1', '$2')} AS base`,
      [scope, stream],
    );
    return base;
  }

  /**
   * The epoch in force at `at` (epoch 0 before the stream existed) with its segments, and the
   * stream's version; undefined when there is no stream. One statement through `query` (a
   * LATERAL pick of the epoch, its segments as one `json_agg` list through the life index), so
   * its cost does not grow with the history.
   */
  async segmentsAtTime(scope: string, stream: string, at: number): Promise<SegmentsAt | undefined> {
    const [row] = await this.db.tx.query<
      (ResourceVersion & { epoch: number; created_at: string; segments: Segment[] })[]
    >(
      `SELECT ${createdMicros('s')} AS created, s.version::text AS version,
              e.epoch, e.created_at, ${segmentsAliveAt('e.epoch')} AS segments
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
    return {
      epoch: row.epoch,
      timestamp: Number(row.created_at),
      segments,
      revision: { created, version },
    };
  }

  /**
   * A segment of the stream with its life and neighbours: predecessors, the segments of the
   * epoch before its own whose keys overlap its keys; successors, those of the epoch that sealed
   * it. Undefined when the stream never had that number. One statement through `query` (two
   * `ARRAY` subqueries over key ranges), each part an index scan.
   */
  async segmentLife(
    scope: string,
    stream: string,
    number: number,
  ): Promise<SegmentLife | undefined> {
    const [row] = await this.db.tx.query<
      {
        number: number;
        start_time: string;
        key_start: number;
        key_end: number;
        created_in: number;
        sealed_in: number | null;
        sealed_time: string | null;
        predecessors: number[];
        successors: number[];
      }[]
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
   * Writes the stream's `next` epoch: the segments numbered `sealed` are sealed by it, and new
   * ones over `ranges` open in it, numbered on from the stream's numbering. The caller holds the
   * stream's row lock, so epochs are written one at a time. The first new number.
   */
  scale(scope: string, stream: string, next: NextEpoch): Promise<number> {
    return this.addEpochs(scope, next.epoch, next.time, [{ stream, ...next }]).then(
      ([first]) => first,
    );
  }

  /**
   * The write of {@link scale}, for a caller that does not read the new numbers: it goes to
   * PostgreSQL with the transaction's next statement, in that statement's round trip (often the
   * COMMIT's; `database/with-commit.ts`), and a failure is that statement's.
   */
  scaleUnanswered(scope: string, stream: string, next: NextEpoch): Promise<void> {
    return this.writeEpochs(scope, next.epoch, next.time, [{ stream, ...next }]);
  }

  /** Moves the stream's version on (a change of its segments); the new one. */
  touch(scope: string, name: string): Promise<ResourceVersion> {
    return this.changed(TOUCH, scope, [name], {}, name);
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
    const ofStream = { scopeName: scope, streamName: stream };
    const inForce = await this.epochs.findOne({
      where: { ...ofStream, createdAt: LessThanOrEqual(from) },
      order: { createdAt: 'DESC' },
    });
    const later = await this.epochs
      .createQueryBuilder('e')
      .where('e.scopeName = :scope AND e.streamName = :stream', { scope, stream })
      .andWhere('e.createdAt > :from AND e.createdAt <= :to', { from, to })
      .orderBy('e.createdAt')
      .limit(take)
      .getMany();
    return [...(inForce ? [inForce] : []), ...later].map(toEpoch);
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
    const epochs = await this.epochs.find({
      where: {
        scopeName: scope,
        streamName: stream,
        epoch: MoreThanOrEqual(first),
        createdAt: LessThanOrEqual(to),
      },
      order: { epoch: 'ASC' },
      take,
    });
    return epochs.map(toEpoch);
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
    const segments = await this.segmentsOfStream(scope, stream)
      .andWhere(`${LIFE} && int4range(:first::int, :last::int, '[]')`, { first, last })
      .getMany();
    return segments.map(toSegment);
  }

  /** The segments of one stream, aliased `g` (as {@link LIFE} names them). */
  private segmentsOfStream(scope: string, stream: string): SelectQueryBuilder<StreamSegmentEntity> {
    return this.segments
      .createQueryBuilder('g')
      .where('g.scopeName = :scope AND g.streamName = :stream', { scope, stream });
  }

  /**
   * Changes streams `names` of a scope, moving their versions on in the same statement; the
   * new version of `name`.
   */
  private async changed<P extends keyof StreamEntity>(
    update: UpdateRows<StreamEntity, P>,
    scope: string,
    names: string[],
    set: Pick<StreamEntity, P>,
    name: string,
  ): Promise<ResourceVersion> {
    const updated = await update.run<ResourceVersion & { name: string }>(this.db.tx, set, [
      scope,
      names,
    ]);
    const { created, version } = updated.find((row) => row.name === name)!;
    return { created, version };
  }

  /** {@link addEpochs} without its answer, sent with the transaction's next statement. */
  private writeEpochs(
    scope: string,
    epoch: number,
    time: number,
    streams: EpochsOf[],
  ): Promise<void> {
    const { sql, values } = epochsWritten(scope, epoch, time, streams);
    return sendWithNext(this.db.tx, sql, values);
  }

  /**
   * Writes epoch `epoch` at `time` of each of `streams` (see {@link epochsWritten}), and answers
   * the first new number of each stream, in the order given.
   */
  private async addEpochs(
    scope: string,
    epoch: number,
    time: number,
    streams: EpochsOf[],
  ): Promise<number[]> {
    const { sql, values } = epochsWritten(scope, epoch, time, streams);
    const { rows } = await queryOnConnection<{ stream_name: string; first: number }>(
      this.db.tx,
      sql,
      values,
    );
    const first = new Map(rows.map((row) => [row.stream_name, row.first]));
    return streams.map(({ stream }) => first.get(stream)!);
  }
}
