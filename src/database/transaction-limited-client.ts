import { Client, type QueryResult } from 'pg';
import { BEGINS } from './transaction-texts';

/** What ends a transaction: a COMMIT or ROLLBACK, alone or as the last statement of a text. */
const END = /(^|;\s*)(COMMIT|ROLLBACK)\s*$/i;

/**
 * The `pg` client of the pool when the service reaches PostgreSQL through a transaction pooler
 * (given to the pool through its documented `Client` option). Its sessions are shared, so no
 * setting of ours can live on them: each transaction sets its own time limits (`limits`, `SET
 * LOCAL ...`) in the round trip that opens it, and a statement sent outside any transaction is
 * run in one of its own, bounded alike (docs/ARCHITECTURE.md, "Time limits").
 *
 * TypeORM sends every statement as `query(text, values)` and reads the promise; the pool's own
 * `query` (a statement outside a transaction, `on-connection.ts`) sends `query(text, values,
 * callback)`. Those two forms are the ones handled; any other passes through unchanged. It
 * extends `base`, which sees each transaction's edges as this client sends them (the committing
 * client of `with-commit.ts`).
 */
export function transactionLimitedClient(
  limits: string,
  base: typeof Client = Client,
): typeof Client {
  return class TransactionLimitedClient extends base {
    private inTransaction = false;

    // `never` fits every overload of `Client.query` without restating them.
    override query(...args: unknown[]): never {
      const [text, values, callback] = args;
      if (
        typeof text !== 'string' ||
        args.length > 3 ||
        !(values === undefined || Array.isArray(values)) ||
        !(callback === undefined || typeof callback === 'function')
      ) {
        return (super.query as (...a: unknown[]) => unknown)(...args) as never;
      }
      const answer = this.statement(text, values);
      if (callback === undefined) return answer as never;
      const done = callback as (error: Error | null, result?: QueryResult) => void;
      answer.then(
        (result) => done(null, result),
        (error: Error) => done(error),
      );
      return undefined as never;
    }

    private async statement(text: string, values?: unknown[]): Promise<QueryResult> {
      if (BEGINS.test(text)) {
        // One round trip: the transaction and its limits. A simple query of several statements
        // answers with each one's result, a list that `pg`'s types do not describe.
        const answers: unknown = await super.query(`${text}; ${limits}`);
        const [begun] = answers as QueryResult[];
        this.inTransaction = true;
        return begun;
      }
      if (END.test(text)) {
        this.inTransaction = false;
        return super.query(text);
      }
      if (this.inTransaction) return super.query(text, values);
      await super.query(`BEGIN; ${limits}`);
      try {
        const result = await super.query(text, values);
        await super.query('COMMIT');
        return result;
      } catch (error) {
        await super.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }
  };
}
