import { Injectable } from '@nestjs/common';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { Statement } from '../database/with-commit';
import { ChangeEventEntity } from './change-event.entity';
import { ChangeFeedEntity } from './change-feed.entity';
import type { NewEvent, StoredEvent } from './change-event';
import type { FeedBounds } from './feed-position';

/** The channel a commit that wrote events notifies: a wake-up only, it carries nothing. */
export const FEED_CHANNEL = 'tributary_change_feed';

/** The largest id PostgreSQL's `bigint` holds: "no event younger than that" reads as this. */
const MAX_BIGINT = '9223372036854775807';

const toEvent = (row: ChangeEventEntity): StoredEvent => ({
  id: BigInt(row.id),
  scopeName: row.scopeName,
  resource: row.resource,
  body: row.body,
});

/** What a read of the feed found: the events, and how far it looked (see {@link after}). */
export interface FeedRead {
  events: StoredEvent[];
  /** The last id the read covered: its last event's, or the newest when it reached the end. */
  through: bigint;
}

/**
 * The feed's counter moved on by the events' count ($1), the wake-up on channel $2, and the
 * insert of the events ($3, one JSON list) with the ids the counter frees: the insert reads the
 * UPDATE, so the counter's row lock is taken there, in the one statement.
 */
const APPEND_EVENTS = `WITH feed_next AS (UPDATE change_feed SET last_id = last_id + $1::int RETURNING last_id),
            feed_wake AS (SELECT pg_notify($2, ''))
       INSERT INTO change_events (id, scope_name, resource, body)
       SELECT feed_next.last_id - $1::int + e.n, e.scope_name, e.resource, e.body
         FROM feed_next, feed_wake,
              ROWS FROM (json_to_recordset($3::json) AS (scope_name text, resource text, body text))
                WITH ORDINALITY AS e (scope_name, resource, body, n)`;

/** Every statement of the tables `change_feed` and `change_events`. */
@Injectable()
export class EventsRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get events() {
    return this.db.tx.getRepository(ChangeEventEntity);
  }

  private get feed() {
    return this.db.tx.getRepository(ChangeFeedEntity);
  }

  /**
   * The write of a transaction's events with the next ids, waking the listeners (NOTIFY is sent
   * at commit), for the caller to send as the transaction's last statement before COMMIT
   * (`audit/change-recorder.service.ts`): the UPDATE's row lock, which orders the ids, is held
   * from there to the commit. SQL of its own, with data-modifying WITH queries: the feed's
   * counter, the insert that reads it and the NOTIFY must be one statement under that lock,
   * which the repository API would make three.
   */
  appended(events: readonly NewEvent[]): Statement {
    return {
      text: APPEND_EVENTS,
      values: [
        events.length,
        FEED_CHANNEL,
        // One JSON parameter, serialized once (see AuditRepository.inserted).
        JSON.stringify(
          events.map((e) => ({ scope_name: e.scopeName, resource: e.resource, body: e.body })),
        ),
      ],
    };
  }

  /**
   * At most `take` events after `after` (of one scope when given), in id order. The newest id
   * is read first: every event up to it has committed (ids are taken at commit, one transaction
   * at a time), so the events read next include all of them, and a read that found fewer than
   * `take` covered the feed at least up to it.
   */
  async after(after: bigint, scope: string | undefined, take: number): Promise<FeedRead> {
    const newest = await this.newest();
    const query = this.events
      .createQueryBuilder('e')
      .select(['e.id', 'e.scopeName', 'e.resource', 'e.body'])
      .where('e.id > :after', { after: String(after) });
    if (scope !== undefined) query.andWhere('e.scopeName = :scope', { scope });
    const events = (await query.orderBy('e.id').limit(take).getMany()).map(toEvent);
    const last = events.at(-1)?.id ?? after;
    const through = events.length === take || last > newest ? last : newest;
    return { events, through: through > after ? through : after };
  }

  /** The oldest event kept (newest + 1 when none is) and the newest. */
  async bounds(): Promise<FeedBounds> {
    const newest = await this.newest();
    const row = await this.events
      .createQueryBuilder('e')
      .select('min(e.id)', 'oldest')
      .getRawOne<{ oldest: string | null }>();
    const oldest = row?.oldest ?? null;
    return { oldest: oldest === null ? newest + 1n : BigInt(oldest), newest };
  }

  /** The newest id. */
  async newest(): Promise<bigint> {
    const [row] = await this.feed.find({ select: { lastId: true } });
    return BigInt(row.lastId);
  }

  /**
   * Deletes at most `limit` of the oldest events, only from the start of the feed and only up to
   * the first event that is younger than `hours` (so what is kept stays one run of ids).
   *
   * @returns how many were deleted.
   */
  async deleteExpired(hours: number, limit: number): Promise<number> {
    const youngest = this.events
      .createQueryBuilder('young')
      .select('min(young.id)')
      .where('young.at >= now() - make_interval(hours => :hours)');
    const oldest = this.events
      .createQueryBuilder('old')
      .select('old.id')
      .where(`old.id < COALESCE((${youngest.getQuery()}), :max)`)
      .orderBy('old.id')
      .limit(limit);
    const result = await this.events
      .createQueryBuilder()
      .delete()
      .where(`id IN (${oldest.getQuery()})`)
      .setParameters({ hours, max: MAX_BIGINT })
      .execute();
    return result.affected ?? 0;
  }
}
