import type { Db } from '../../src/database/db';
import type { Actor } from '../../src/audit/actor';
import type { AuditEntry, AuditService } from '../../src/audit/audit.service';

/** A transaction host that runs each unit of work directly and counts them. */
export function fakeDb(): Db & { transactions: number } {
  const db = {
    transactions: 0,
    withTransaction: (work: () => Promise<unknown>) => {
      db.transactions++;
      return work();
    },
  };
  return db as unknown as Db & { transactions: number };
}

/** An audit trail that keeps what it is told. */
export function fakeAudit(): AuditService & { entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return {
    entries,
    changed: (_actor: Actor, entry: AuditEntry) => {
      entries.push(entry);
      return Promise.resolve();
    },
  } as unknown as AuditService & { entries: AuditEntry[] };
}

export const ACTOR: Actor = {
  principal: 'tester',
  clientAddress: '127.0.0.1',
  userAgent: null,
  requestId: 'r-1',
};
