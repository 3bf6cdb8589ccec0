import { Injectable } from '@nestjs/common';
import type { Queryable } from '../database/pg-transactional-adapter';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { FeedEntry, NewEvent, newEvent } from './change-event';
import { EventsRepository } from './events.repository';

/**
 * Writes the change feed's events (docs/extensions.md section 8), told of each change by
 * `AuditedChanges` inside the change's transaction. The events of a transaction are written
 * together by its last statement, sent with its COMMIT in one round trip, when they take their
 * ids: the lock that orders
 * the ids is then held only while the transaction commits, and a transaction that makes several
 * changes (an apply) takes it once, after every row lock it needed.
 */
@Injectable()
export class FeedRecorder {
  /** The events of each transaction still open, by its handle. */
  private readonly pending = new WeakMap<Queryable, NewEvent[]>();

  constructor(
    @InjectDb() private readonly db: Db,
    private readonly events: EventsRepository,
  ) {}

  /** Records the event of a change; must run inside the change's transaction. */
  record(entry: FeedEntry): void {
    const event = newEvent(entry);
    if (!event) return;
    const tx = this.db.tx;
    if (!tx.withCommit) throw new Error('a change must be recorded inside its transaction');
    const queued = this.pending.get(tx);
    if (queued) {
      queued.push(event);
      return;
    }
    const events = [event];
    this.pending.set(tx, events);
    this.events.appendAtCommit(events);
  }
}
