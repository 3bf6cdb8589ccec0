import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { bigintToNumber } from '../database/bigint.transformer';
import { StreamFilter } from './stream-filter';
import { StreamEntity } from './stream.entity';

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

const toRecord = (row: StreamRow): StreamRecord => ({
  ...row,
  retentionMin: bigintToNumber.from(row.retentionMin) as number | null,
  retentionMax: bigintToNumber.from(row.retentionMax) as number | null,
  rolloverSizeBytes: bigintToNumber.from(row.rolloverSizeBytes) as number,
  timestampAggregationTimeout: bigintToNumber.from(row.timestampAggregationTimeout) as number,
});

/**
 * The reads of streams, in plain SQL: they are the service's hot paths, where building each
 * query through the ORM cost more than running it. Writes stay with the entity manager.
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
}
