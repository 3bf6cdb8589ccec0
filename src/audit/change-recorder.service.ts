import { Injectable } from '@nestjs/common';
import {
  DataSource,
  type EntitySubscriberInterface,
  type QueryRunner,
  type TransactionCommitEvent,
  type TransactionRollbackEvent,
} from 'typeorm';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { FeedEntry, NewEvent, newEvent } from './change-event';
import { EventsRepository } from './events.repository';

/**
 * Writes the change feed's events (docs/extensions.md section 8), told of each change by
 * `AuditedChanges` inside the change's transaction. The events of a transaction are written
 * together by its last statement before COMMIT (TypeORM tells this subscriber of every commit),
 * when they take their ids: the lock that orders the ids is then held only while the
 * transaction commits, and a transaction that makes several changes (an apply) takes it once,
 * after every row lock it needed.
 */
@Injectable()
export class FeedRecorder implements EntitySubscriberInterface {
  /** The events of each transaction still open, by its query runner. */
  private readonly pending = new WeakMap<QueryRunner, NewEvent[]>();

  constructor(
    @InjectDb() private readonly db: Db,
    private readonly events: EventsRepository,
    dataSource: DataSource,
  ) {
    dataSource.subscribers.push(this);
  }

  /** Records the event of a change; must run inside the change's transaction. */
  record(entry: FeedEntry): void {
    const event = newEvent(entry);
    if (!event) return;
    const runner = this.db.isTransactionActive() ? this.db.tx.queryRunner : undefined;
    if (!runner) throw new Error('a change must be recorded inside its transaction');
    const queued = this.pending.get(runner);
    if (queued) queued.push(event);
    else this.pending.set(runner, [event]);
  }

  async beforeTransactionCommit({ queryRunner }: TransactionCommitEvent): Promise<void> {
    const events = this.pending.get(queryRunner);
    if (!events) return;
    this.pending.delete(queryRunner);
    await this.events.append(queryRunner.manager, events);
  }

  afterTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    this.pending.delete(queryRunner);
  }
}
