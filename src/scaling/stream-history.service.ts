import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ScalingPolicy } from '../streams/scaling-policy';
import { equalKeyRanges } from './key-ranges';
import { needsRescale } from './scaling-decision';
import {
  buildScaleRecords,
  Epoch,
  nextEpochTime,
  ScaleRecord,
  SegmentRecord,
  selectWindow,
} from './scaling-history';

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

const toEpoch = (row: EpochRow): Epoch => ({ epoch: row.epoch, timestamp: Number(row.created_at) });

const toSegment = (row: SegmentRow): SegmentRecord => ({
  number: row.number,
  startTime: Number(row.start_time),
  keyStart: row.key_start,
  keyEnd: row.key_end,
  createdIn: row.created_in,
  ...(row.sealed_in === null ? {} : { sealedIn: row.sealed_in }),
});

/** A stream's epochs and segments: written with the stream, scaled by updates, read by window. */
@Injectable()
export class StreamHistoryService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Epoch 0 of a new stream: `count` equal segments, numbered after any predecessor's. */
  async begin(
    tx: EntityManager,
    scope: string,
    stream: string,
    count: number,
    now = Date.now(),
  ): Promise<void> {
    await this.addEpoch(tx, scope, stream, 0, count, now);
  }

  /**
   * Scales the stream when its new policy asks for it: every active segment is sealed and
   * `minSegments` equal ones replace them in a new epoch. The caller holds the stream's row lock,
   * so epochs of one stream are written one at a time.
   */
  async applyPolicy(
    tx: EntityManager,
    scope: string,
    stream: string,
    policy: ScalingPolicy,
    now = Date.now(),
  ): Promise<void> {
    // The latest epoch's segments are exactly the active ones: no segment needs counting.
    const [current] = await tx.query<EpochRow[]>(
      `SELECT epoch, created_at, active_segments FROM stream_epochs
        WHERE scope_name = $1 AND stream_name = $2
        ORDER BY epoch DESC LIMIT 1`,
      [scope, stream],
    );
    if (!needsRescale(policy, current.active_segments.length)) return;

    const epoch = current.epoch + 1;
    await tx.query(
      `UPDATE stream_segments SET sealed_in = $3
        WHERE scope_name = $1 AND stream_name = $2 AND number = ANY($4::int[])`,
      [scope, stream, epoch, current.active_segments],
    );
    const time = nextEpochTime(Number(current.created_at), now);
    await this.addEpoch(tx, scope, stream, epoch, policy.minSegments, time);
  }

  /** The scaling events of [from, to]; reads only the epochs the window shows. */
  async scalingEvents(
    scope: string,
    stream: string,
    from: number,
    to: number,
  ): Promise<ScaleRecord[]> {
    const rows = await this.dataSource.query<EpochRow[]>(
      `(SELECT epoch, created_at, active_segments FROM stream_epochs
         WHERE scope_name = $1 AND stream_name = $2 AND created_at <= $3
         ORDER BY created_at DESC LIMIT 1)
       UNION ALL
       (SELECT epoch, created_at, active_segments FROM stream_epochs
         WHERE scope_name = $1 AND stream_name = $2 AND created_at > $3 AND created_at <= $4)`,
      [scope, stream, from, to],
    );
    const epochs = selectWindow(rows.map(toEpoch), from, to);
    if (epochs.length === 0) return [];

    // The segments active at the first epoch (by number), and those created later in the window
    // (by creation epoch): disjoint halves, each a plain index lookup whatever the statistics.
    const first = epochs[0].epoch;
    const last = epochs[epochs.length - 1].epoch;
    const activeAtFirst = rows.find((row) => row.epoch === first)!.active_segments;
    const segments = (
      await this.dataSource.query<SegmentRow[]>(
        `SELECT number, start_time, key_start, key_end, created_in, sealed_in FROM stream_segments
          WHERE scope_name = $1 AND stream_name = $2 AND number = ANY($3::int[])
         UNION ALL
         SELECT number, start_time, key_start, key_end, created_in, sealed_in FROM stream_segments
          WHERE scope_name = $1 AND stream_name = $2 AND created_in > $4 AND created_in <= $5`,
        [scope, stream, activeAtFirst, first, last],
      )
    ).map(toSegment);
    return buildScaleRecords(epochs, segments);
  }

  /**
   * Writes epoch `epoch` at `time` with `count` new equal segments, numbered on from the stream's
   * numbering (which outlives the stream itself), in one statement; the caller has sealed the
   * previous ones, so they are the epoch's only active segments.
   */
  private async addEpoch(
    tx: EntityManager,
    scope: string,
    stream: string,
    epoch: number,
    count: number,
    time: number,
  ): Promise<void> {
    const ranges = equalKeyRanges(count);
    await tx.query(
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
