import {
  Client,
  type ClientConfig,
  type CustomTypesConfig,
  type Connection,
  type QueryResult,
  type Submittable,
} from 'pg';
import type { EntityManager } from 'typeorm';
import { queryOnConnection } from './on-connection';
import { type Ahead, sentAhead, written } from './sent-ahead';
import { BEGINS, ONE_BEGIN } from './transaction-texts';

/** Marks the pool's connections that send a statement given to them with the next one. */
const SENDS_WITH_NEXT = Symbol('sendsWithNext');

/** What waits for a connection's next statement, in order. */
const waiting = new WeakMap<object, Ahead[]>();

/**
 * The first failure, by connection, of a statement sent after statements held back for it (or
 * of those statements): the COMMIT fails with it instead of being sent. PostgreSQL has aborted
 * the transaction, and a caller that caught the error and went on would otherwise hear
 * "ROLLBACK" from its COMMIT and take it for done.
 */
const failedAhead = new WeakMap<object, Error>();

const COMMIT = /^COMMIT$/i;
const ROLLBACK = /^ROLLBACK$/i;
/** A ROLLBACK, or a ROLLBACK TO SAVEPOINT, which leaves the transaction usable again. */
const ANY_ROLLBACK = /^ROLLBACK\b/i;

/** The BEGIN each of the pool's connections holds back for its transaction's first statement. */
const heldBegin = new WeakMap<object, string>();

/** `pg`'s answer to `command`, given without sending it: a BEGIN held back, or nothing to end. */
const answered = (command: string): QueryResult => ({
  command,
  rowCount: null,
  oid: 0,
  rows: [],
  fields: [],
});
const nothingFor = (command: string): Promise<QueryResult> => Promise.resolve(answered(command));

/**
 * The `pg` client of the pool (given through its documented `Client` option): it sends what
 * nothing waits for with the statement that follows, so that it costs no round trip of its own.
 *
 * - A BEGIN is held back and sent with the transaction's first statement, in its round trip
 *   (`sent-ahead.ts`); a transaction that sends nothing sends no BEGIN, COMMIT or ROLLBACK.
 * - A statement handed to it by {@link sendWithNext}, whose answer no one reads, goes to
 *   PostgreSQL in the round trip of the transaction's next statement, ahead of it: often the
 *   COMMIT that TypeORM sends last. A change's last statement takes the row lock that orders
 *   the change feed's ids (`events/events.repository.ts`); sent on its own, the lock would be
 *   held while its answer travels back, waits its turn in the event loop, and the COMMIT travels
 *   out: with ten changes at once, every other change waits that long in turn (BENCHMARKS.md,
 *   "The data layer's cost"). A ROLLBACK drops what waits, and a new transaction starts with
 *   nothing.
 *
 * A statement without values goes by `pg`'s simple protocol, whose text may hold several
 * statements, and a cursor is sent as it is: what waits then goes on its own just before them,
 * and if it fails, the statement answers its error (or, a cursor, PostgreSQL's "transaction is
 * aborted", and the COMMIT then fails with the first error).
 */
export function committingClient(base: typeof Client = Client): typeof Client {
  return class CommittingClient extends base {
    readonly [SENDS_WITH_NEXT] = true;

    /** The type parsers the pool gave (`types`), for a statement sent with others ahead. */
    private readonly parsers: CustomTypesConfig | undefined;

    constructor(config?: string | ClientConfig) {
      super(config);
      this.parsers = typeof config === 'object' ? config.types : undefined;
    }

    // `never` fits every overload of `Client.query` without restating them.
    override query(...args: unknown[]): never {
      const [text, values] = args;
      // TypeORM begins with `query(text, undefined)`, reading the promise.
      if (
        args.length <= 2 &&
        values === undefined &&
        typeof text === 'string' &&
        ONE_BEGIN.test(text)
      ) {
        this.forget();
        heldBegin.set(this, text);
        return nothingFor('BEGIN') as never;
      }
      const begin = heldBegin.get(this);
      const unread = waiting.get(this);
      // Most statements find nothing held back, and are not read further.
      if (begin === undefined && unread === undefined && !failedAhead.has(this)) {
        return this.send(args) as never;
      }
      return this.withHeldBack(begin, unread ?? [], args) as never;
    }

    private send(args: unknown[]): unknown {
      return (super.query as (...a: unknown[]) => unknown).apply(this, args);
    }

    private forget(): void {
      heldBegin.delete(this);
      waiting.delete(this);
      failedAhead.delete(this);
    }

    /**
     * Sends the statement of `args` after what was held back for it: a BEGIN, statements whose
     * answers no one reads. A COMMIT takes them into its own round trip; a ROLLBACK drops them;
     * the COMMIT or ROLLBACK of a transaction that sent nothing is not sent at all.
     */
    private withHeldBack(begin: string | undefined, unread: Ahead[], args: unknown[]): unknown {
      const [text, values, callback] = args;
      heldBegin.delete(this);
      waiting.delete(this);
      const ahead = begin === undefined ? unread : [{ text: begin, values: [] }, ...unread];
      // What waits was given after the savepoint that a ROLLBACK TO drops: a SAVEPOINT, which
      // has no values, sent it before it.
      if (typeof text === 'string' && (ANY_ROLLBACK.test(text) || BEGINS.test(text))) {
        failedAhead.delete(this);
        return begin !== undefined && ROLLBACK.test(text)
          ? nothingFor('ROLLBACK')
          : this.send(args);
      }
      if (typeof text === 'string' && COMMIT.test(text)) {
        const failed = failedAhead.get(this);
        failedAhead.delete(this);
        if (failed) return Promise.reject(failed);
        return unread.length === 0
          ? nothingFor('COMMIT')
          : this.sendAll([...ahead, { text: 'COMMIT', values: [] }], 'COMMIT');
      }
      if (ahead.length === 0) return this.send(args);
      const sent =
        callback === undefined ? sentAhead(ahead, text, values, this.parsers) : undefined;
      if (sent) {
        this.send([sent.pipeline]);
        return unread.length > 0 ? this.noted(sent.answer) : sent.answer;
      }
      // Queued first, so sent first, as they were given.
      const before = this.noted(this.sendAll(ahead, 'SELECT'));
      if (typeof text === 'string' && typeof values !== 'function' && callback === undefined) {
        // The statement waits for them, and answers their error if they fail.
        return before.then(() => this.send(args));
      }
      before.catch(() => undefined);
      return this.send(args);
    }

    /** `answer`, whose failure is also kept for the COMMIT ({@link failedAhead}). */
    private noted(answer: Promise<QueryResult>): Promise<QueryResult> {
      return answer.catch((error: Error) => {
        if (!failedAhead.has(this)) failedAhead.set(this, error);
        throw error;
      });
    }

    /** The statements, in one round trip, answered as `command`. */
    private sendAll(statements: Ahead[], command: string): Promise<QueryResult> {
      return new Promise<QueryResult>((resolve, reject) => {
        this.send([
          new Pipeline(statements, command, (error, result) =>
            error ? reject(error) : resolve(result!),
          ),
        ]);
      });
    }
  };
}

/**
 * Statements as one pipeline of the extended protocol: each parsed, bound to its values and
 * executed, then one Sync. PostgreSQL runs them in order and, from the first that fails, skips
 * the rest up to the Sync: with a COMMIT last, a failed statement leaves its transaction
 * uncommitted (aborted, for TypeORM to roll back), and its error is the answer. A
 * {@link Submittable}, `pg`'s public way to send what its `Query` does not.
 */
class Pipeline implements Submittable {
  /** What it sends, as traces show it: placeholders, never values. */
  readonly text: string;

  constructor(
    private readonly statements: Ahead[],
    /** What `pg` would answer for the last of them. */
    private readonly command: string,
    // Public: `pg` wraps it to bound the wait (`query_timeout`), and tracing to end its span.
    public callback: (error: Error | null, result?: QueryResult) => void,
  ) {
    this.text = statements.map((s) => s.text).join(';\n');
  }

  submit(connection: Connection): void {
    // One write for the whole pipeline, as `pg`'s own extended queries do.
    connection.stream.cork();
    try {
      written(connection, this.statements);
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  /** The pipeline's end: everything ran; answered as `pg` answers its last statement. */
  handleReadyForQuery(): void {
    this.callback(null, answered(this.command));
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

/** A statement and its values, built by a repository for another part of the service to send. */
export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * Sends a statement whose answer no one reads with the next statement of the manager's
 * transaction, ahead of it and in its round trip (the COMMIT's, when it is the last): run before
 * anything the transaction sends after it, and if it fails, that statement (or the COMMIT)
 * answers its error. Its `values` are its parameters, each sent as text: strings, finite numbers
 * and arrays of them (as array literals); a placeholder that stands for anything but text is
 * cast in the statement (`$1::int`, `$2::text[]`). Outside a transaction, or on a connection not
 * made by {@link committingClient}, the statement runs now instead.
 */
export async function sendWithNext(
  manager: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<void> {
  const runner = manager.queryRunner;
  const connection: unknown = runner?.isTransactionActive ? await runner.connect() : undefined;
  if (!(connection instanceof Client) || !(SENDS_WITH_NEXT in connection)) {
    await queryOnConnection(manager, text, values);
    return;
  }
  const statement = { text, values: values.map(asText) };
  waiting.set(connection, [...(waiting.get(connection) ?? []), statement]);
}

function asText(value: unknown, i: number): string {
  if (Array.isArray(value)) return `{${value.map((item) => arrayItem(item, i)).join(',')}}`;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new TypeError(`$${i + 1}: only text, finite numbers and arrays of them are sent ahead`);
}

/** An item of an array literal: a number as it is, text quoted (`"a\\"b"` for `a"b`). */
function arrayItem(item: unknown, i: number): string {
  if (typeof item === 'string') return `"${item.replace(/[\\"]/g, '\\$&')}"`;
  if (typeof item === 'number' && Number.isFinite(item)) return String(item);
  throw new TypeError(`$${i + 1}: only text, finite numbers and arrays of them are sent ahead`);
}
