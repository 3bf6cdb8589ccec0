import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { SegmentMarks } from '../scaling/load-rules';
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
    if (sealed.length > 0) {
      await this.segments.delete({ scopeName: scope, streamName: stream, number: In(sealed) });
    }
    if (marks.size > 0) {
      const rows = [...marks].map(([number, m]) => ({
        scopeName: scope,
        streamName: stream,
        number,
        lastUp: m.lastUp,
        lastDown: m.lastDown,
        coldUntil: m.coldUntil ?? null,
        lastReport: now,
      }));
      await this.segments.upsert(rows, ['scopeName', 'streamName', 'number']);
    }
    await this.streams
      .createQueryBuilder()
      .insert()
      .values({ scopeName: scope, streamName: stream, firstReport: now })
      .orIgnore()
      .execute();
  }
}
