import { Injectable } from '@nestjs/common';
import type { DomainError } from '../common/domain-error';
import type { TagCondition } from '../conditional/entity-tag';
import { requireMatch, ResourceVersion, Tagged } from '../conditional/resource-version';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { Actor } from './actor';
import { AuditEntry, AuditService } from './audit.service';

/** What a change did: its result, and the audit row to write (none when nothing changed). */
export interface Changed<T> {
  result: T;
  audit?: AuditEntry;
  /**
   * The resource after the change, as its GET answers it, for the change feed's event; none
   * after a delete. Read only when the change is recorded.
   */
  shown?: () => Promise<Tagged<object>>;
  /**
   * Further changes of the same request, each with its own audit row and event, written after
   * the first (the scales one report of load makes, say).
   */
  also?: Recorded[];
}

/** One change's audit row, and the resource after it as its GET answers it. */
export interface Recorded {
  audit: AuditEntry;
  shown?: Tagged<object>;
}

/** The existing resource a change is made to. */
export interface ChangeTarget<Row> {
  /** The resource in words, for a failed precondition (`stream sales/orders`). */
  what: string;
  /** Reads the resource and locks its row until the transaction ends; undefined when missing. */
  lock(): Promise<Row | undefined>;
  /** The error when it is missing. */
  missing(): DomainError;
  /** The version of the state read, which `If-Match` must name. */
  version(row: Row): ResourceVersion;
}

/**
 * How every resource changes: in one transaction with its audit row and its event of the change
 * feed (docs/extensions.md section 8), so the three commit or roll back together. A change of an existing resource first locks its row (writers take turns),
 * answers 404 when it is missing and checks `If-Match` against the state the change starts
 * from. A change made inside a larger transaction (an apply, a request with an
 * Idempotency-Key) joins it.
 */
@Injectable()
export class AuditedChanges {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  /** Makes something new (nothing to lock or compare). */
  create<T>(actor: Actor, make: () => Promise<Changed<T>>): Promise<T> {
    return this.db.withTransaction(async () => this.recorded(actor, await make()));
  }

  /** Changes an existing resource: lock, 404, `If-Match`, change, audit. */
  change<Row, T>(
    actor: Actor,
    target: ChangeTarget<Row>,
    condition: TagCondition | undefined,
    change: (current: Row) => Promise<Changed<T>>,
  ): Promise<T> {
    return this.db.withTransaction(async () => {
      const current = await target.lock();
      if (current === undefined) throw target.missing();
      requireMatch(condition, target.what, target.version(current));
      return this.recorded(actor, await change(current));
    });
  }

  private async recorded<T>(actor: Actor, { result, audit, shown, also }: Changed<T>): Promise<T> {
    if (audit) this.audit.changed(actor, audit, shown && (await shown()));
    for (const change of also ?? []) this.audit.changed(actor, change.audit, change.shown);
    return result;
  }
}
