import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { manyOf } from '../database/statements-built-once';
import { queryOnConnection } from '../database/on-connection';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { SegmentMarks } from '../scaling/load-rules';
import { StreamSegmentEntity } from '../streams/stream-segment.entity';
import { StreamEntity } from '../streams/stream.entity';
import { SegmentLoadEntity } from './segment-load.entity';
import { StreamLoadEntity } from './stream-load.entity';

/**
 * The marks of a stream's segments, each array one column: an upsert of unnested arrays, which
 * the repository API cannot say. A batch of 1,000 reports writes 1,000 rows: as the query
 * builder's insert, 7,000 parameters, which cost more CPU than the rest of the batch (bench:load).
 */
const UPSERT_MARKS = `
  INSERT INTO segment_loads
    (scope_name, stream_name, number, last_up, last_down, cold_until, last_report)
  SELECT $1, $2, m.number, m.last_up, m.last_down, m.cold_until, $7
    FROM unnest($3::int[], $4::bigint[], $5::bigint[], $6::bigint[])
      AS m (number, last_up, last_down, cold_until)
  ON CONFLICT (scope_name, stream_name, number) DO UPDATE
    SET last_up = EXCLUDED.last_up, last_down = EXCLUDED.last_down,
        cold_until = EXCLUDED.cold_until,
        last_report = COALESCE(EXCLUDED.last_report, segment_loads.last_report)`;

/** A stream's stored marks, and the last report stored of each segment that has one. */
export interface StoredMarks {
  marks: Map<number, SegmentMarks>;
  lastReports: Map<number, number>;
}

/** Every statement of segment_loads and stream_loads; each joins the current transaction. */
@Injectable()
export class SegmentLoadsRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get segments() {
    return this.db.tx.getRepository(SegmentLoadEntity);
  }

  private get streams() {
    return this.db.tx.getRepository(StreamLoadEntity);
  }

  /** The stored marks of a stream's segments, and when each was last reported, by number. */
  async marksOf(scope: string, stream: string): Promise<StoredMarks> {
    const query = this.segments
      .createQueryBuilder('m')
      .where('m.scope_name = :scope AND m.stream_name = :stream', { scope, stream });
    const rows = await manyOf(query, ['number', 'lastUp', 'lastDown', 'coldUntil', 'lastReport']);
    const stored: StoredMarks = { marks: new Map(), lastReports: new Map() };
    for (const row of rows) {
      const { lastUp, lastDown, coldUntil } = row;
      stored.marks.set(row.number, { lastUp, lastDown, coldUntil: coldUntil ?? undefined });
      if (row.lastReport !== null) stored.lastReports.set(row.number, row.lastReport);
    }
    return stored;
  }

  /**
   * Stores the marks of segments reported at `now` (the time of their last report), and
   * forgets those of segments the reports sealed; with `first` (no segment of the stream had a
   * row), the stream's first report is kept if it had none.
   */
  async reported(
    scope: string,
    stream: string,
    now: number,
    marks: ReadonlyMap<number, SegmentMarks>,
    sealed: readonly number[],
    first: boolean,
  ): Promise<void> {
    await this.forget(scope, stream, sealed);
    await this.store(scope, stream, marks, now);
    if (!first) return;
    await this.streams
      .createQueryBuilder()
      .insert()
      .values({ scopeName: scope, streamName: stream, firstReport: now })
      .orIgnore()
      .execute();
  }

  /** Stores the marks a sweep of silence made, leaving the last reports as they were. */
  async swept(
    scope: string,
    stream: string,
    marks: ReadonlyMap<number, SegmentMarks>,
    sealed: readonly number[],
  ): Promise<void> {
    await this.forget(scope, stream, sealed);
    await this.store(scope, stream, marks);
  }

  /**
   * The active segments of active streams with a rate policy that have had a report, whose
   * last report stored is before `before`, or, never reported, the later of their start and the
   * stream's first report. At most `limit` streams, each with its segments' numbers.
   */
  async silent(
    before: number,
    limit: number,
    only?: { scope: string; stream: string },
  ): Promise<{ scope: string; stream: string; segments: number[] }[]> {
    const query = this.streams
      .createQueryBuilder('l')
      .select('l.scope_name', 'scope')
      .addSelect('l.stream_name', 'stream')
      .addSelect('array_agg(g.number ORDER BY g.number)', 'segments')
      .innerJoin(
        StreamEntity,
        's',
        `s.scope_name = l.scope_name AND s.name = l.stream_name AND s.state = 'ACTIVE'
           AND s.scaling_type <> 'FIXED_NUM_SEGMENTS'`,
      )
      .innerJoin(
        StreamSegmentEntity,
        'g',
        'g.scope_name = l.scope_name AND g.stream_name = l.stream_name AND g.sealed_in IS NULL',
      )
      .leftJoin(
        SegmentLoadEntity,
        'm',
        'm.scope_name = g.scope_name AND m.stream_name = g.stream_name AND m.number = g.number',
      )
      .where('COALESCE(m.last_report, GREATEST(g.start_time, l.first_report)) < :before', {
        before,
      })
      .groupBy('l.scope_name')
      .addGroupBy('l.stream_name')
      .orderBy('l.scope_name')
      .addOrderBy('l.stream_name')
      .limit(limit);
    if (only) {
      query.andWhere('l.scope_name = :scope AND l.stream_name = :stream', only);
    }
    return query.getRawMany<{ scope: string; stream: string; segments: number[] }>();
  }

  /**
   * Takes the transaction-level advisory lock `key` if it is free; false if another transaction
   * holds it. Released when the transaction ends.
   */
  async tryLock(key: number): Promise<boolean> {
    // A function call, which no repository API says.
    const [row] = await this.db.tx.query<{ locked: boolean }[]>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [key],
    );
    return row.locked;
  }

  /** Lets the current transaction wait idle as long as its work takes. */
  async holdIdle(): Promise<void> {
    // A setting of the session's, which no repository API says.
    await this.db.tx.query('SET LOCAL idle_in_transaction_session_timeout = 0');
  }

  private async forget(scope: string, stream: string, sealed: readonly number[]): Promise<void> {
    if (sealed.length === 0) return;
    await this.segments.delete({ scopeName: scope, streamName: stream, number: In(sealed) });
  }

  /**
   * Upserts marks, and the time of the last report when one was taken (else the stored one
   * stays), in one statement whatever their number.
   */
  private async store(
    scope: string,
    stream: string,
    marks: ReadonlyMap<number, SegmentMarks>,
    reportedAt?: number,
  ): Promise<void> {
    if (marks.size === 0) return;
    const numbers: number[] = [];
    const lastUp: number[] = [];
    const lastDown: number[] = [];
    const coldUntil: (number | null)[] = [];
    for (const [number, m] of marks) {
      numbers.push(number);
      lastUp.push(m.lastUp);
      lastDown.push(m.lastDown);
      coldUntil.push(m.coldUntil ?? null);
    }
    await queryOnConnection(this.db.tx, UPSERT_MARKS, [
      scope,
      stream,
      numbers,
      lastUp,
      lastDown,
      coldUntil,
      reportedAt ?? null,
    ]);
  }
}
