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
import { sendWithNext, type Statement } from '../database/with-commit';
import { FeedEntry, NewEvent, newEvent } from '../events/change-event';
import { EventsRepository } from '../events/events.repository';
import { AuditRecord, AuditRepository } from './audit.repository';

/** What a transaction has to write at its commit. */
interface Pending {
  records: AuditRecord[];
  events: NewEvent[];
}

/**
 * Writes what a transaction's changes leave behind: their audit rows and their events of the
 * change feed (docs/extensions.md section 8), told of each change inside its transaction. They
 * are sent with the COMMIT, in its round trip (TypeORM tells this subscriber of every commit;
 * `database/with-commit.ts`): the events take their ids then, so the lock that orders the ids
 * is held only while PostgreSQL commits, never while an answer travels (BENCHMARKS.md, "The data
 * layer's cost"), and a transaction that makes several changes (an apply) takes it once, after
 * every row lock it needed. The audit rows and the events are two statements, the audit rows'
 * first: joined in one, PostgreSQL ran its data-modifying WITH queries last-written first (an
 * order it leaves unspecified), the audit rows' insert under that lock, and every change
 * waiting for the lock waited longer (BENCHMARKS.md, "The audit rows before the
 * feed's lock").
 */
@Injectable()
export class ChangeRecorder implements EntitySubscriberInterface {
  /** What each transaction still open has to write, by its query runner. */
  private readonly pending = new WeakMap<QueryRunner, Pending>();

  constructor(
    @InjectDb() private readonly db: Db,
    private readonly audit: AuditRepository,
    private readonly events: EventsRepository,
    dataSource: DataSource,
  ) {
    dataSource.subscribers.push(this);
  }

  /**
   * Records a change: its audit row, and its event when the resource is one of the feed's. Must
   * run inside the change's transaction; both are written if and only if it commits.
   */
  record(record: AuditRecord, entry?: FeedEntry): void {
    const runner = this.db.isTransactionActive() ? this.db.tx.queryRunner : undefined;
    if (!runner) throw new Error('a change must be recorded inside its transaction');
    let pending = this.pending.get(runner);
    if (!pending) {
      pending = { records: [], events: [] };
      this.pending.set(runner, pending);
    }
    pending.records.push(record);
    const event = entry && newEvent(entry);
    if (event) pending.events.push(event);
  }

  async beforeTransactionCommit({ queryRunner }: TransactionCommitEvent): Promise<void> {
    const pending = this.pending.get(queryRunner);
    if (!pending) return;
    this.pending.delete(queryRunner);
    const statements: Statement[] = [this.audit.inserted(pending.records)];
    if (pending.events.length > 0) statements.push(this.events.appended(pending.events));
    // In this order: the feed's counter is locked once the audit rows are written.
    for (const { text, values } of statements) {
      await sendWithNext(queryRunner.manager, text, values);
    }
  }

  afterTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    this.pending.delete(queryRunner);
  }
}
