import type { QueryResult, QueryResultRow } from 'pg';
import { type EntityManager, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { poolOf } from './connection-pool';

/** What the driver's connection is: a `pg` PoolClient, of which only `query` is used here. */
interface PgConnection<R extends QueryResultRow> {
  query(sql: string, values: unknown[]): Promise<QueryResult<R>>;
}

/**
 * A statement of the hottest paths (the reads and writes of every create and change), sent
 * with `pg`'s `query` on the connection of the manager's query runner: the connection TypeORM's
 * public `QueryRunner.connect()` answers, in the transaction the runner holds. TypeORM's own
 * `query` does the same and adds, per statement, a `beforeQuery` and an `afterQuery` event to
 * every subscriber, each awaited, and its logger's call: about 8 µs of CPU a statement, which
 * no part of the service listens to (BENCHMARKS.md, "The data layer's cost"). Transactions
 * still begin, commit and roll back through TypeORM, with their events. A failure is `pg`'s own
 * error, which `postgres-errors.ts` reads as it reads TypeORM's. Outside a transaction, the
 * pool's own `query`, which takes a connection for the one statement and gives it back: a query
 * runner of its own (its event broadcaster, its entity manager, its bookkeeping in the driver)
 * costs a GET about 5 µs more of CPU (BENCHMARKS.md, "The data layer's cost"). A data source
 * opened without the service's `ConnectionPool` (a test's, say) has no such pool: a runner then.
 */
export async function queryOnConnection<R extends QueryResultRow>(
  manager: EntityManager,
  sql: string,
  values: readonly unknown[],
): Promise<QueryResult<R>> {
  const inTransaction = manager.queryRunner;
  // A released runner would connect again, outside its transaction: refused, as TypeORM does.
  if (inTransaction?.isReleased) throw new QueryRunnerAlreadyReleasedError();
  const pool = inTransaction ? undefined : poolOf(manager.dataSource);
  if (pool) return pool.query<R>(sql, [...values]);
  const runner = inTransaction ?? manager.dataSource.createQueryRunner();
  try {
    // TypeORM types the connection as `any`: it is the driver's, a `pg` PoolClient.
    const connection = (await runner.connect()) as PgConnection<R>;
    return await connection.query(sql, [...values]);
  } finally {
    if (!inTransaction) await runner.release();
  }
}
