import type { TransactionalAdapter } from '@nestjs-cls/transactional';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { DatabaseServer } from './database-server';

/** Where a repository's statements go: the current transaction, or the pool outside one. */
export interface Queryable {
  /** Runs one statement; its rows. */
  query<Rows = unknown[]>(sql: string, params?: unknown[]): Promise<Rows>;
  /**
   * In a transaction: runs `step` after the transaction's work, just before its COMMIT (in the
   * order they were given). What must hold a lock only as long as the commit takes (the change
   * feed's ids) goes here. Undefined outside a transaction.
   */
  beforeCommit?(step: () => Promise<void>): void;
  /**
   * In a transaction: a statement sent with its COMMIT, in the same round trip (so it takes no
   * round trip of its own), after the steps of {@link beforeCommit}. Its text is asked for only
   * then; it has no parameters, so every value in it must be a literal escaped with
   * `escapeLiteral`. Undefined outside a transaction.
   */
  withCommit?(statement: () => string): void;
}

export interface TransactionOptions {
  isolationLevel?: 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';
}

const onClient = (client: Pool | PoolClient): Queryable => ({
  query: async <Rows>(sql: string, params?: unknown[]) =>
    (await client.query(sql, params)).rows as Rows,
});

/**
 * Runs `work` on one pooled client between BEGIN (`begin`: BEGIN and what goes with it, in one
 * round trip) and COMMIT, or ROLLBACK when it fails. The steps `work` asks to run before the
 * commit run after it, in the same transaction.
 */
async function inTransaction<T>(
  pool: Pool,
  begin: string,
  work: (client: PoolClient, last: Required<Omit<Queryable, 'query'>>) => Promise<T>,
): Promise<T> {
  const lastSteps: Array<() => Promise<void>> = [];
  const withCommit: Array<() => string> = [];
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection lost mid-transaction (the server gone) fails the statement waiting on it; its
  // error event is noted here, and the connection is not given back for reuse.
  const lost = (error: Error) => (broken = error);
  client.on('error', lost);
  try {
    await client.query(begin);
    const result = await work(client, {
      beforeCommit: (step) => lastSteps.push(step),
      withCommit: (statement) => withCommit.push(statement),
    });
    for (const step of lastSteps) await step();
    // One simple query: were a statement before COMMIT to fail, the COMMIT is not run.
    await client.query([...withCommit.map((statement) => statement()), 'COMMIT'].join(';\n'));
    return result;
  } catch (error) {
    // A connection that cannot even roll back is not given to the next request.
    await client.query('ROLLBACK').catch((failure: Error) => (broken = failure));
    throw error;
  } finally {
    client.off('error', lost);
    client.release(broken);
  }
}

/**
 * Transactions for `@nestjs-cls/transactional` straight on the `pg` pool that TypeORM's data
 * source opened (TypeORM keeps the connection settings and runs the migrations). Every request
 * reaches PostgreSQL through here: without TypeORM's query runner, a statement costs what `pg`
 * costs, and a transaction is one pooled client with BEGIN and COMMIT.
 *
 * When the sessions do not carry the time limits (through a transaction pooler: see
 * `DatabaseServer.poolSettings`), each transaction sets its own after BEGIN, and a statement
 * outside a transaction is given one of its own to set them in.
 */
export class PgTransactionalAdapter implements TransactionalAdapter<
  DataSource,
  Queryable,
  TransactionOptions
> {
  readonly connectionToken = getDataSourceToken();
  readonly extraProviderTokens = [DatabaseServer];

  readonly optionsFactory = (dataSource: DataSource, [server]: DatabaseServer[]) => {
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const timeouts = server.transactionTimeouts();
    const begin = (level?: TransactionOptions['isolationLevel']) =>
      [level ? `BEGIN ISOLATION LEVEL ${level}` : 'BEGIN', timeouts].filter(Boolean).join('; ');
    const outside: Queryable = timeouts
      ? {
          query: <Rows>(sql: string, params?: unknown[]) =>
            inTransaction(pool, begin(), (client) => onClient(client).query<Rows>(sql, params)),
        }
      : onClient(pool);
    return {
      wrapWithTransaction: (
        options: TransactionOptions | undefined,
        fn: () => Promise<unknown>,
        setTx: (tx?: Queryable) => void,
      ): Promise<unknown> =>
        inTransaction(pool, begin(options?.isolationLevel), (client, last) => {
          setTx({ ...onClient(client), ...last });
          return fn();
        }),
      getFallbackInstance: () => outside,
    };
  };
}
