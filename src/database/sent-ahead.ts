import {
  type Connection,
  type CustomTypesConfig,
  Query,
  type QueryConfig,
  type QueryResult,
  type Submittable,
} from 'pg';
// What `pg`'s Query has besides what its types list: the handlers passed on to it.
import './pg-query-handlers';

type Done = NonNullable<Query['callback']>;

/** A statement sent ahead of another, whose answer no one reads, with its values as sent. */
export interface Ahead {
  text: string;
  values: string[];
}

/**
 * Writes each statement as the extended protocol's Parse (unnamed, its parameters' types left
 * to PostgreSQL), Bind to its values and Execute, without asking for a description of its rows.
 */
export function written(connection: Connection, statements: Ahead[]): void {
  for (const { text, values } of statements) {
    connection.parse({ name: '', text, types: [] }, true);
    connection.bind({ values }, true);
    connection.execute({}, true);
  }
}

/**
 * Statements sent ahead of a statement, and the statement, as one pipeline of the extended
 * protocol: each statement ahead parsed, bound to its values and executed, then the statement
 * exactly as `pg`'s own {@link Query} sends it, with the one Sync that ends it. PostgreSQL runs
 * them in order, and from the first that fails skips to the Sync: the transaction is left
 * aborted, for TypeORM to roll back, and that error is the statement's answer, as if they had
 * gone one after the other. Otherwise the answers are the statement's: those of the statements
 * ahead (a CommandComplete each, and the rows of a RETURNING, which nothing asked to describe)
 * come back first, and are read here and not passed on. A {@link Submittable}, `pg`'s public
 * way to send what its `Query` does not.
 */
class SentAhead implements Submittable {
  /** How many of the statements ahead have answered. */
  private completed = 0;
  /** The statement as `pg`'s own `Query` sends and reads it, answering through {@link callback}. */
  private readonly first: Query;
  /** What it sends, as traces show it: placeholders, never values. */
  readonly text: string;

  constructor(
    private readonly ahead: Ahead[],
    first: QueryConfig,
    // Public: `pg` wraps it to bound the wait (`query_timeout`), and tracing to end its span.
    public callback: Done,
  ) {
    this.first = new Query(first, (error, result) => this.callback(error, result));
    this.text = [...ahead.map((statement) => statement.text), this.first.text].join(';\n');
  }

  submit(connection: Connection): void {
    // One write for the whole pipeline: the statement's own cork nests in this one.
    connection.stream.cork();
    try {
      written(connection, this.ahead);
      // Never an error: only a statement with text, no name and an array of values comes here.
      this.first.submit(connection);
    } finally {
      connection.stream.uncork();
    }
  }

  /** Whether an answer is still one of the statements ahead. */
  private get aheadAnswering(): boolean {
    return this.completed < this.ahead.length;
  }

  handleCommandComplete(message: unknown, connection: Connection): void {
    if (this.aheadAnswering) {
      this.completed++;
      return;
    }
    this.first.handleCommandComplete(message, connection);
  }

  handleRowDescription(message: unknown): void {
    this.first.handleRowDescription(message);
  }

  handleDataRow(message: unknown): void {
    if (!this.aheadAnswering) this.first.handleDataRow(message);
  }

  handleEmptyQuery(connection: Connection): void {
    this.first.handleEmptyQuery(connection);
  }

  handleError(error: Error, connection: Connection): void {
    this.first.handleError(error, connection);
  }

  handleReadyForQuery(connection: Connection): void {
    this.first.handleReadyForQuery(connection);
  }

  // No portal is suspended (the statement asks for all its rows) and no COPY runs (it takes no
  // parameters, and this statement has some): those handlers are never called.
}

/**
 * The statement `text` with its `values`, sent after the statements `ahead` in the same round
 * trip, when it goes by the extended protocol (it has values): a pipeline can hold one statement
 * of it, and `pg` sends one of the simple protocol as a text that may hold several. Undefined
 * otherwise: the caller then sends those ahead on their own first. `types`: the client's type
 * parsers.
 */
export function sentAhead(
  ahead: Ahead[],
  text: unknown,
  values: unknown,
  types: CustomTypesConfig | undefined,
): { pipeline: Submittable; answer: Promise<QueryResult> } | undefined {
  if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) return undefined;
  let pipeline: Submittable | undefined;
  const answer = new Promise<QueryResult>((resolve, reject) => {
    pipeline = new SentAhead(ahead, { text, values, types }, (error, result) =>
      error ? reject(error) : resolve(result!),
    );
  });
  return { pipeline: pipeline!, answer };
}
