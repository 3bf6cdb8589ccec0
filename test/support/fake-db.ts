import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../src/database/transaction-host';
import type { Actor } from '../../src/audit/actor';
import type { AuditEntry, AuditService } from '../../src/audit/audit.service';
import { AuditedChanges } from '../../src/audit/audited-changes.service';
import type { Paginator } from '../../src/pagination/paginator';
import type { ScopesRepository } from '../../src/scopes/scopes.repository';
import { ScopesService } from '../../src/scopes/scopes.service';

/** How a transaction of {@link fakeDb} ended. */
export type Outcome = 'committed' | 'rolled back';

/** A transaction host over in-memory lists of writes (see {@link fakeDb}). */
export type FakeDb = Db & {
  /** How each transaction ended, in order. */
  readonly transactions: Outcome[];
  /** A new list for a fake to append its writes to: a failed transaction takes its own back. */
  journal<T>(): T[];
};

/**
 * A transaction host for unit tests of services, over lists of writes instead of tables. The
 * fakes a service writes through (repositories, the audit trail, the change feed) append what
 * they write to lists from {@link FakeDb.journal}. A unit of work that throws takes back what
 * was appended while it ran, as ROLLBACK does, so the lists hold what would have committed; one
 * run inside another joins it, as `db.withTransaction(fn)` does. A write outside any unit of
 * work stays, as a statement outside a transaction commits. Transactions run one at a time
 * (a second one beginning while another is open is refused): the tests that need concurrent
 * transactions run against PostgreSQL.
 */
export function fakeDb(): FakeDb {
  const lists: unknown[][] = [];
  const transactions: Outcome[] = [];
  const inside = new AsyncLocalStorage<true>();
  let open = false;
  const withTransaction = async (...args: unknown[]): Promise<unknown> => {
    const [work] = args;
    if (args.length !== 1 || typeof work !== 'function') {
      throw new Error('fakeDb models withTransaction(work) alone: no options, no propagation');
    }
    const run = work as () => Promise<unknown>;
    if (inside.getStore()) return run();
    if (open) throw new Error('fakeDb runs one transaction at a time');
    open = true;
    const lengths = lists.map((list) => list.length);
    try {
      const result = await inside.run(true, run);
      transactions.push('committed');
      return result;
    } catch (error) {
      lists.forEach((list, i) => {
        list.length = lengths[i] ?? 0;
      });
      transactions.push('rolled back');
      throw error;
    } finally {
      open = false;
    }
  };
  const db = {
    transactions,
    journal: <T>(): T[] => {
      const list: T[] = [];
      lists.push(list);
      return list;
    },
    withTransaction,
    isTransactionActive: () => inside.getStore() === true,
  };
  return db as unknown as FakeDb;
}

/**
 * An audit trail that keeps the changes it is told of, as the real one only inside a
 * transaction, and keeps them only if it commits.
 */
export function fakeAudit(db: FakeDb): AuditService & { entries: AuditEntry[] } {
  const entries = db.journal<AuditEntry>();
  return {
    entries,
    changed: (_actor: Actor, entry: AuditEntry) => {
      if (!db.isTransactionActive()) {
        throw new Error('a change must be recorded inside its transaction');
      }
      entries.push(entry);
    },
  } as unknown as AuditService & { entries: AuditEntry[] };
}

export const ACTOR: Actor = {
  principal: 'tester',
  clientAddress: '127.0.0.1',
  userAgent: null,
  requestId: 'r-1',
};

/**
 * The scopes service over a scopes table where the scope exists, or does not: what a feature's
 * service asks of it to name what is missing. It changes no scope.
 */
export function scopesWhere(scopeExists: boolean): ScopesService {
  const db = fakeDb();
  return new ScopesService(
    { exists: () => Promise.resolve(scopeExists) } as unknown as ScopesRepository,
    new AuditedChanges(db, fakeAudit(db)),
    {} as Paginator,
  );
}
