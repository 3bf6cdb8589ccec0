import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { SegmentMarks } from '../scaling/load-rules';
import { StreamSegmentEntity } from '../streams/stream-segment.entity';
import { StreamEntity } from '../streams/stream.entity';
import { SegmentLoadEntity } from './segment-load.entity';
import { StreamLoadEntity } from './stream-load.entity';

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

  /** The stored marks of a stream's segments, by number. */
  async marksOf(scope: string, stream: string): Promise<Map<number, SegmentMarks>> {
    const rows = await this.segments.find({
      where: { scopeName: scope, streamName: stream },
      select: { number: true, lastUp: true, lastDown: true, coldUntil: true },
    });
    return new Map(
      rows.map((row) => [
        row.number,
        { lastUp: row.lastUp, lastDown: row.lastDown, coldUntil: row.coldUntil ?? undefined },
      ]),
    );
  }

  /**
   * Stores the marks of segments reported at `now` (the time of their last report), and
   * forgets those of segments the reports sealed, in two statements at most; the stream's first
   * report is kept if it had none.
   */
  async reported(
    scope: string,
    stream: string,
    now: number,
    marks: ReadonlyMap<number, SegmentMarks>,
    sealed: readonly number[],
  ): Promise<void> {
    await this.forget(scope, stream, sealed);
    await this.store(scope, stream, marks, now);
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
   * The active segments of active streams with a rate policy that have had a report, silent
   * for longer than `silenceMs` at `now`: not reported since, or, never reported, since the later
   * of their start and the stream's first report. At most `limit` streams, each with its
   * segments' numbers.
   */
  async silent(
    now: number,
    silenceMs: number,
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
        before: now - silenceMs,
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

  /** Upserts marks, and the time of the last report when one was taken. */
  private async store(
    scope: string,
    stream: string,
    marks: ReadonlyMap<number, SegmentMarks>,
    reportedAt?: number,
  ): Promise<void> {
    if (marks.size === 0) return;
    const rows = [...marks].map(([number, m]) => ({
      scopeName: scope,
      streamName: stream,
      number,
      lastUp: m.lastUp,
      lastDown: m.lastDown,
      coldUntil: m.coldUntil ?? null,
      ...(reportedAt === undefined ? {} : { lastReport: reportedAt }),
    }));
    const updated = ['last_up', 'last_down', 'cold_until'];
    if (reportedAt !== undefined) updated.push('last_report');
    await this.segments
      .createQueryBuilder()
      .insert()
      .values(rows)
      .orUpdate(updated, ['scope_name', 'stream_name', 'number'])
      .execute();
  }
}
