import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { bigintToNumber } from '../database/bigint.transformer';
import { StreamFilter } from './stream-filter';
import { StreamEntity } from './stream.entity';
import type { ConfigurationColumns } from './stream.mapper';

/** A stream as the API reads it: name, state and configuration. */
export type StreamRecord = Omit<
  StreamEntity,
  'ownerStream' | 'ownerReaderGroup' | 'createdAt' | 'updatedAt'
>;

type BigintColumn =
  'retentionMin' | 'retentionMax' | 'rolloverSizeBytes' | 'timestampAggregationTimeout';

/** A row as PostgreSQL sends it: `bigint` arrives as a string. */
type StreamRow = Omit<StreamRecord, BigintColumn> & Record<BigintColumn, string | null>;

const SELECT_STREAMS = `SELECT scope_name AS "scopeName", name, state, scaling_type AS "scalingType",
    min_segments AS "minSegments", target_rate AS "targetRate", scale_factor AS "scaleFactor",
    retention_type AS "retentionType", retention_min AS "retentionMin",
    retention_max AS "retentionMax", tags, rollover_size_bytes AS "rolloverSizeBytes",
    timestamp_aggregation_timeout AS "timestampAggregationTimeout"
  FROM streams`;

/** `_` is a LIKE wildcard: escaped, the pattern means "starts with an underscore". */
const INTERNAL = `name LIKE '\\_%'`;

const WHERE_FILTER: Record<StreamFilter['kind'], string> = {
  user: `NOT ${INTERNAL}`,
  internal: INTERNAL,
  tag: `NOT ${INTERNAL} AND tags @> ARRAY[$2::text]`,
};

/** A stream to insert: its name, what owns it (an internal stream) and its configuration. */
export interface NewStream {
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

const toRecord = (row: StreamRow): StreamRecord => ({
  ...row,
  retentionMin: bigintToNumber.from(row.retentionMin) as number | null,
  retentionMax: bigintToNumber.from(row.retentionMax) as number | null,
  rolloverSizeBytes: bigintToNumber.from(row.rolloverSizeBytes) as number,
  timestampAggregationTimeout: bigintToNumber.from(row.timestampAggregationTimeout) as number,
});

/**
 * The streams table in plain SQL, for the service's hot paths (get, list, create, update):
 * building each query through the ORM cost more than running it. Writes take the caller's
 * transaction.
 */
@Injectable()
export class StreamsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findOne(scope: string, name: string): Promise<StreamRecord | undefined> {
    const [row] = await this.dataSource.query<StreamRow[]>(
      `${SELECT_STREAMS} WHERE scope_name = $1 AND name = $2`,
      [scope, name],
    );
    return row && toRecord(row);
  }

  /** Reads the stream and locks its row for the rest of the caller's transaction. */
  async lockOne(tx: EntityManager, scope: string, name: string): Promise<StreamRecord | undefined> {
    const [row] = await tx.query<StreamRow[]>(
      `${SELECT_STREAMS} WHERE scope_name = $1 AND name = $2 FOR UPDATE`,
      [scope, name],
    );
    return row && toRecord(row);
  }

  /** The streams of a scope the filter selects, by name: one query, whatever their number. */
  async findByScope(scope: string, filter: StreamFilter): Promise<StreamRecord[]> {
    const rows = await this.dataSource.query<StreamRow[]>(
      `${SELECT_STREAMS} WHERE scope_name = $1 AND ${WHERE_FILTER[filter.kind]} ORDER BY name`,
      filter.kind === 'tag' ? [scope, filter.tag] : [scope],
    );
    return rows.map(toRecord);
  }

  async exists(scope: string, name: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM streams WHERE scope_name = $1 AND name = $2`,
      [scope, name],
    );
    return rows.length > 0;
  }

  /** Inserts active streams in one statement (a stream and its companion go in together). */
  async insert(tx: EntityManager, scope: string, streams: NewStream[]): Promise<void> {
    const width = INSERT_COLUMNS.length;
    const rows = streams.map((_, i) => `(${placeholders(i * width + 1, width)})`);
    await tx.query(
      `INSERT INTO streams (${INSERT_COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`,
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

  /** Replaces every configuration column of a stream. */
  async updateConfiguration(
    tx: EntityManager,
    scope: string,
    name: string,
    columns: ConfigurationColumns,
  ): Promise<void> {
    const set = CONFIGURATION.map(([column], i) => `${column} = $${i + 3}`).join(', ');
    await tx.query(
      `UPDATE streams SET ${set}, updated_at = now() WHERE scope_name = $1 AND name = $2`,
      [scope, name, ...configurationValues(columns)],
    );
  }
}
