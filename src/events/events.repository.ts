import { Injectable } from '@nestjs/common';
import { escapeLiteral } from 'pg';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { NewEvent, StoredEvent } from './change-event';
import type { FeedBounds } from './feed-position';

/** The channel a commit that wrote events notifies: a wake-up only, it carries nothing. */
export const FEED_CHANNEL = 'tributary_change_feed';

interface EventRow {
  id: string;
  scope_name: string;
  resource: string;
  body: string;
}

const toEvent = (row: EventRow): StoredEvent => ({
  id: BigInt(row.id),
  scopeName: row.scope_name,
  resource: row.resource,
  body: row.body,
});

/** What a read of the feed found: the events, and how far it looked (see {@link after}). */
export interface FeedRead {
  events: StoredEvent[];
  /** The last id the read covered: its last event's, or the newest when it reached the end. */
  through: bigint;
}

/** The statement that appends `events` (values as literals: it is sent with COMMIT). */
function appendStatement(events: NewEvent[]): string {
  const values = events
    .map(
      (e, i) =>
        `(${i + 1}, ${escapeLiteral(e.scopeName)}, ${escapeLiteral(e.resource)}, ${escapeLiteral(e.body)})`,
    )
    .join(', ');
  return `WITH next AS (UPDATE change_feed SET last_id = last_id + ${events.length} RETURNING last_id),
            wake AS (SELECT pg_notify('${FEED_CHANNEL}', ''))
       INSERT INTO change_events (id, scope_name, resource, body)
       SELECT next.last_id - ${events.length} + e.n, e.scope_name, e.resource, e.body
         FROM next, wake, (VALUES ${values}) AS e(n, scope_name, resource, body)`;
}

/** Every statement of the tables `change_feed` and `change_events`. */
@Injectable()
export class EventsRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  /**
   * Writes a transaction's events with the next ids and wakes the listeners (NOTIFY is sent at
   * commit): the statement goes with the COMMIT, in its round trip. The UPDATE's row lock, which
   * orders the ids, is held from there to the commit.
   */
  appendAtCommit(events: NewEvent[]): void {
    const tx = this.db.tx;
    if (!tx.withCommit) throw new Error('events are appended inside their transaction');
    tx.withCommit(() => appendStatement(events));
  }

  /**
   * At most `take` events after `after` (of one scope when given), in id order, read in one
   * snapshot with the newest id of that snapshot.
   */
  async after(after: bigint, scope: string | undefined, take: number): Promise<FeedRead> {
    const rows = await this.db.tx.query<Array<EventRow & { newest: string }>>(
      `SELECT f.last_id AS newest, e.id, e.scope_name, e.resource, e.body
         FROM change_feed f
         LEFT JOIN LATERAL (
           SELECT id, scope_name, resource, body FROM change_events
            WHERE id > $1 AND ($2::text IS NULL OR scope_name = $2)
            ORDER BY id LIMIT $3) e ON true`,
      [String(after), scope ?? null, take],
    );
    const events = rows.filter((row) => row.id !== null).map(toEvent);
    const newest = BigInt(rows[0].newest);
    const through = events.length === take ? events[events.length - 1].id : newest;
    return { events, through: through > after ? through : after };
  }

  /** The oldest event kept (newest + 1 when none is) and the newest. */
  async bounds(): Promise<FeedBounds> {
    const [row] = await this.db.tx.query<Array<{ oldest: string | null; newest: string }>>(
      `SELECT (SELECT min(id) FROM change_events) AS oldest, last_id AS newest FROM change_feed`,
    );
    const newest = BigInt(row.newest);
    return { oldest: row.oldest === null ? newest + 1n : BigInt(row.oldest), newest };
  }

  /** The newest id. */
  async newest(): Promise<bigint> {
    const [row] = await this.db.tx.query<Array<{ last_id: string }>>(
      `SELECT last_id FROM change_feed`,
    );
    return BigInt(row.last_id);
  }

  /**
   * Deletes at most `limit` of the oldest events, only from the start of the feed and only up to
   * the first event that is younger than `hours` (so what is kept stays one run of ids).
   *
   * @returns how many were deleted.
   */
  async deleteExpired(hours: number, limit: number): Promise<number> {
    const rows = await this.db.tx.query<unknown[]>(
      `DELETE FROM change_events WHERE id IN (
         SELECT id FROM change_events
          WHERE id < COALESCE(
                  (SELECT min(id) FROM change_events WHERE at >= now() - make_interval(hours => $1)),
                  9223372036854775807)
          ORDER BY id LIMIT $2)
       RETURNING 1`,
      [hours, limit],
    );
    return rows.length;
  }
}
