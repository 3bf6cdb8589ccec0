import type { Db } from '../../src/database/transaction-host';
import type { Actor } from '../../src/audit/actor';
import type { AuditEntry, AuditService } from '../../src/audit/audit.service';
import { AuditedChanges } from '../../src/audit/audited-changes.service';
import type { FeedEntry } from '../../src/events/change-event';
import type { FeedRecorder } from '../../src/events/feed-recorder.service';
import type { Paginator } from '../../src/pagination/paginator';
import type { ScopesRepository } from '../../src/scopes/scopes.repository';
import { ScopesService } from '../../src/scopes/scopes.service';

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

/** A change feed that keeps the events it is told of. */
export function fakeFeed(): FeedRecorder & { entries: FeedEntry[] } {
  const entries: FeedEntry[] = [];
  return {
    entries,
    record: (entry: FeedEntry) => entries.push(entry),
  } as unknown as FeedRecorder & { entries: FeedEntry[] };
}

export const ACTOR: Actor = {
  principal: 'tester',
  clientAddress: '127.0.0.1',
  userAgent: null,
  requestId: 'r-1',
};

/** The scopes service over a scopes table where the scope exists, or does not. */
export function scopesWhere(scopeExists: boolean): ScopesService {
  return new ScopesService(
    { exists: () => Promise.resolve(scopeExists) } as unknown as ScopesRepository,
    new AuditedChanges(fakeDb(), fakeAudit(), fakeFeed()),
    {} as Paginator,
  );
}
