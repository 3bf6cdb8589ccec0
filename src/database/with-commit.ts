import {
  Client,
  type ClientConfig,
  type Connection,
  type CustomTypesConfig,
  type QueryResult,
  type Submittable,
} from 'pg';
import type { QueryRunner } from 'typeorm';
import { beginWith } from './begin-with-first';
import { queryOnConnection } from './on-connection';
import { BEGINS, ONE_BEGIN } from './transaction-texts';

/** Marks the pool's connections that send a statement given to them with their COMMIT. */
const SENDS_WITH_COMMIT = Symbol('sendsWithCommit');

/** A statement waiting for its connection's COMMIT, with its values as sent. */
interface Waiting {
  text: string;
  values: string[];
}

/** What waits for a connection's COMMIT, in order. */
const waiting = new WeakMap<object, Waiting[]>();

const COMMIT = /^COMMIT$/i;
const ROLLBACK = /^ROLLBACK$/i;

/** The BEGIN each of the pool's connections holds back for its transaction's first statement. */
const heldBegin = new WeakMap<object, string>();

/** `pg`'s answer to `command`, given without sending it: a BEGIN held back, or nothing to end. */
const nothingFor = (command: string): Promise<QueryResult> =>
  Promise.resolve({ command, rowCount: null, oid: 0, rows: [], fields: [] });

/**
 * The `pg` client of the pool (given through its documented `Client` option): it sends a
 * transaction's edges with its neighbours, so that they cost no round trip of their own.
 *
 * - A BEGIN is held back and sent with the transaction's first statement, in its round trip
 *   (`begin-with-first.ts`); a transaction that sends nothing sends no BEGIN, COMMIT or ROLLBACK.
 *   A first statement without values goes by `pg`'s simple protocol, whose text may hold several
 *   statements: the BEGIN then goes on its own just before it.
 * - A statement handed to it by {@link sendWithCommit} goes to PostgreSQL in the same round trip
 *   as the COMMIT that TypeORM sends next. A change's last statement takes the row lock that
 *   orders the change feed's ids (`events/events.repository.ts`); sent on its own, the lock would
 *   be held while its answer travels back, waits its turn in the event loop, and the COMMIT
 *   travels out: with ten changes at once, every other change waits that long in turn
 *   (BENCHMARKS.md, "The data layer's cost"). A ROLLBACK drops what waits, and a new transaction
 *   starts with nothing.
 */
export function committingClient(base: typeof Client = Client): typeof Client {
  return class CommittingClient extends base {
    readonly [SENDS_WITH_COMMIT] = true;

    /** The type parsers the pool gave (`types`), for a first statement sent with its BEGIN. */
    private readonly parsers: CustomTypesConfig | undefined;

    constructor(config?: string | ClientConfig) {
      super(config);
      this.parsers = typeof config === 'object' ? config.types : undefined;
    }

    // `never` fits every overload of `Client.query` without restating them.
    override query(...args: unknown[]): never {
      const [text, values, callback] = args;
      // TypeORM begins with `query(text, undefined)`, reading the promise.
      if (
        args.length <= 2 &&
        values === undefined &&
        typeof text === 'string' &&
        ONE_BEGIN.test(text)
      ) {
        waiting.delete(this);
        heldBegin.set(this, text);
        return nothingFor('BEGIN') as never;
      }
      const begin = heldBegin.get(this);
      if (begin !== undefined) {
        heldBegin.delete(this);
        const sent = this.withBegin(begin, text, values, callback);
        if (sent) return sent as never;
      }
      // Most statements find nothing waiting, and are not read further.
      const statements = waiting.get(this);
      if (statements && typeof text === 'string') {
        if (COMMIT.test(text)) {
          waiting.delete(this);
          return this.commitWith(statements) as never;
        }
        if (ROLLBACK.test(text) || BEGINS.test(text)) waiting.delete(this);
      }
      return (super.query as (...a: unknown[]) => unknown).apply(this, args) as never;
    }

    /**
     * Sends the statement after the BEGIN held back for it: with it, when the statement goes by
     * the extended protocol; a COMMIT or ROLLBACK of a transaction that sent nothing, not at
     * all. Otherwise the BEGIN goes on its own, and undefined: the caller sends the statement.
     */
    private withBegin(
      begin: string,
      text: unknown,
      values: unknown,
      callback: unknown,
    ): Promise<QueryResult> | undefined {
      const commits = typeof text === 'string' && COMMIT.test(text);
      if (commits || (typeof text === 'string' && ROLLBACK.test(text))) {
        const statements = waiting.get(this);
        waiting.delete(this);
        if (statements && commits) {
          return this.commitWith([{ text: begin, values: [] }, ...statements]);
        }
        return nothingFor(commits ? 'COMMIT' : 'ROLLBACK');
      }
      const sent =
        callback === undefined ? beginWith(begin, text, values, this.parsers) : undefined;
      if (sent) {
        super.query(sent.pipeline);
        return sent.answer;
      }
      // Queued first, so sent first, as TypeORM sent it. Only a lost connection fails a BEGIN,
      // and the statement with it.
      super.query(begin).catch(() => undefined);
      return undefined;
    }

    /** The COMMIT with the statements that wait for it, in one round trip. */
    private commitWith(statements: Waiting[]): Promise<QueryResult> {
      return new Promise<QueryResult>((resolve, reject) => {
        super.query(
          new CommitWith(statements, (error, result) => (error ? reject(error) : resolve(result!))),
        );
      });
    }
  };
}

/**
 * The statements and the COMMIT as one pipeline of the extended protocol: each statement parsed,
 * bound to its values and executed, then the COMMIT, then one Sync. PostgreSQL runs them in order
 * and, from the first that fails, skips the rest up to the Sync: a failed statement leaves its
 * transaction uncommitted (aborted, for TypeORM to roll back), and its error is the answer. A
 * {@link Submittable}, `pg`'s public way to send what its `Query` does not.
 */
class CommitWith implements Submittable {
  /** What it sends, as traces show it: placeholders, never values. */
  readonly text: string;

  constructor(
    private readonly statements: Waiting[],
    // Public: `pg` wraps it to bound the wait (`query_timeout`), and tracing to end its span.
    public callback: (error: Error | null, result?: QueryResult) => void,
  ) {
    this.text = [...statements.map((s) => s.text), 'COMMIT'].join(';\n');
  }

  submit(connection: Connection): void {
    // One write for the whole pipeline, as `pg`'s own extended queries do.
    connection.stream.cork();
    try {
      for (const { text, values } of [...this.statements, { text: 'COMMIT', values: [] }]) {
        connection.parse({ name: '', text, types: [] }, true);
        connection.bind({ values }, true);
        connection.execute({}, true);
      }
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  /** The pipeline's end: everything ran, the COMMIT last; answered as `pg` answers a COMMIT. */
  handleReadyForQuery(): void {
    this.callback(null, { command: 'COMMIT', rowCount: null, oid: 0, rows: [], fields: [] });
  }

  /** What failed first; `pg` then forgets the pipeline, and PostgreSQL skips to the Sync. */
  handleError(error: Error): void {
    this.callback(error);
  }

  // Rows of a statement's RETURNING are not asked for (no Describe), and are not read.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
}

/**
 * Sends a statement with the COMMIT of the runner's transaction: run if and only if the
 * transaction commits, and in the same round trip, with `values` as its parameters. Each value
 * is sent as text: a placeholder that stands for anything else is cast in the statement
 * (`$1::int`). A connection not made by {@link committingClient} runs the statement now instead.
 */
export async function sendWithCommit(
  runner: QueryRunner,
  text: string,
  values: readonly unknown[],
): Promise<void> {
  const connection: unknown = await runner.connect();
  if (!(connection instanceof Client) || !(SENDS_WITH_COMMIT in connection)) {
    await queryOnConnection(runner.manager, text, values);
    return;
  }
  const statement = { text, values: values.map(asText) };
  waiting.set(connection, [...(waiting.get(connection) ?? []), statement]);
}

function asText(value: unknown, i: number): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new TypeError(`$${i + 1}: only text and finite numbers are sent with a COMMIT`);
}
