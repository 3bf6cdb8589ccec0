import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { queryOnConnection } from './on-connection';

/** Marks the pool's connections that send a statement given to them with their COMMIT. */
const SENDS_WITH_COMMIT = Symbol('sendsWithCommit');

/** What waits for a connection's COMMIT: the statements, in order. */
const waiting = new WeakMap<object, string[]>();

const COMMIT = /^COMMIT$/i;
const ROLLBACK = /^ROLLBACK$/i;
const BEGIN = /^(START TRANSACTION|BEGIN)\b/i;

/**
 * The `pg` client of the pool (given through its documented `Client` option): a statement handed
 * to it by {@link sendWithCommit} goes to PostgreSQL in the same round trip as the COMMIT that
 * TypeORM sends next, as one simple query. A change's last statement takes the row lock that
 * orders the change feed's ids (`events/events.repository.ts`); sent on its own, the lock would
 * be held while its answer travels back, waits its turn in the event loop, and the COMMIT
 * travels out: with ten changes at once, every other change waits that long in turn
 * (BENCHMARKS.md, "The data layer's cost"). A ROLLBACK drops what waits, and a new transaction
 * starts with nothing.
 */
export function committingClient(base: typeof Client = Client): typeof Client {
  return class CommittingClient extends base {
    readonly [SENDS_WITH_COMMIT] = true;

    // `never` fits every overload of `Client.query` without restating them.
    override query(...args: unknown[]): never {
      const [text] = args;
      if (typeof text === 'string' && (ROLLBACK.test(text) || BEGIN.test(text))) {
        waiting.delete(this);
      }
      const statements = waiting.get(this);
      if (typeof text !== 'string' || !COMMIT.test(text) || !statements) {
        return (super.query as (...a: unknown[]) => unknown).apply(this, args) as never;
      }
      waiting.delete(this);
      return this.commitWith(statements) as never;
    }

    private async commitWith(statements: string[]): Promise<unknown> {
      // Several statements in one simple query answer with a result each: the COMMIT's last.
      const answers: unknown = await (super.query as (text: string) => Promise<unknown>).call(
        this,
        [...statements, 'COMMIT'].join(';\n'),
      );
      return Array.isArray(answers) ? answers.at(-1) : answers;
    }
  };
}

/**
 * Sends a statement with the COMMIT of the runner's transaction: run if and only if the
 * transaction commits, and in the same round trip. A simple query takes no parameters, and data
 * must not be written into SQL text (traces and PostgreSQL's logs show that text): the values go
 * first, as the parameters of one `set_config` statement, into settings local to the
 * transaction, and the statement reads each `$n` back from its setting. Each value therefore
 * arrives as text: a placeholder that stands for anything else is cast in the statement
 * (`$1::int`). A connection not made by {@link committingClient} runs the statement now instead.
 */
export async function sendWithCommit(
  runner: QueryRunner,
  sql: string,
  values: readonly unknown[],
): Promise<void> {
  const connection: unknown = await runner.connect();
  if (!(connection instanceof Client) || !(SENDS_WITH_COMMIT in connection)) {
    await queryOnConnection(runner.manager, sql, values);
    return;
  }
  const statements = waiting.get(connection) ?? [];
  const names = values.map((_, i) => settingName(statements.length + 1, i + 1));
  if (names.length > 0) {
    await queryOnConnection(
      runner.manager,
      `SELECT ${names.map((name, i) => `set_config('${name}', $${i + 1}, true)`).join(', ')}`,
      values.map(asText),
    );
  }
  statements.push(readingSettings(sql, statements.length + 1, values.length));
  waiting.set(connection, statements);
}

/** The setting that holds the value of `$placeholder` for the transaction's `statement`th. */
const settingName = (statement: number, placeholder: number) =>
  `tributary.with_commit_${statement}_${placeholder}`;

/** The statement with each `$n` read from its setting: text that holds no value. */
export function readingSettings(sql: string, statement: number, values: number): string {
  return sql.replace(/\$(\d+)/g, (placeholder, n: string) => {
    if (Number(n) < 1 || Number(n) > values) {
      throw new TypeError(`${placeholder}: the statement has ${values} values`);
    }
    return `current_setting('${settingName(statement, Number(n))}')`;
  });
}

function asText(value: unknown, i: number): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new TypeError(`$${i + 1}: only text and finite numbers are sent with a COMMIT`);
}
