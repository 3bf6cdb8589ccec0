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

/**
 * A transaction's BEGIN and its first statement as one pipeline of the extended protocol: the
 * BEGIN parsed, bound and executed, then the statement exactly as `pg`'s own {@link Query} sends
 * it, with the one Sync that ends it. PostgreSQL runs them in order: the statement runs inside
 * the transaction, and if it fails the transaction is left aborted, for TypeORM to roll back,
 * as if the two had gone one after the other. The answers are the statement's: the BEGIN's
 * CommandComplete, the first to come back, is read here and not passed on. A
 * {@link Submittable}, `pg`'s public way to send what its `Query` does not.
 */
class BeginWith implements Submittable {
  private begun = false;
  /** The statement as `pg`'s own `Query` sends and reads it, answering through {@link callback}. */
  private readonly first: Query;
  /** What it sends, as traces show it: placeholders, never values. */
  readonly text: string;

  constructor(
    private readonly begin: string,
    first: QueryConfig,
    // Public: `pg` wraps it to bound the wait (`query_timeout`), and tracing to end its span.
    public callback: Done,
  ) {
    this.first = new Query(first, (error, result) => this.callback(error, result));
    this.text = `${begin};\n${this.first.text}`;
  }

  submit(connection: Connection): void {
    // One write for the whole pipeline: the statement's own cork nests in this one.
    connection.stream.cork();
    try {
      connection.parse({ name: '', text: this.begin, types: [] }, true);
      connection.bind({ values: [] }, true);
      connection.execute({}, true);
      // Never an error: only a statement with text, no name and an array of values comes here.
      this.first.submit(connection);
    } finally {
      connection.stream.uncork();
    }
  }

  handleCommandComplete(message: unknown, connection: Connection): void {
    if (!this.begun) {
      this.begun = true;
      return;
    }
    this.first.handleCommandComplete(message, connection);
  }

  handleRowDescription(message: unknown): void {
    this.first.handleRowDescription(message);
  }

  handleDataRow(message: unknown): void {
    this.first.handleDataRow(message);
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
 * The statement `text` with its `values`, sent after `begin` in the same round trip, when it goes
 * by the extended protocol (it has values): a pipeline can hold one statement of it, and `pg`
 * sends one of the simple protocol as a text that may hold several. Undefined otherwise: the
 * caller then sends the BEGIN on its own first. `types`: the client's type parsers.
 */
export function beginWith(
  begin: string,
  text: unknown,
  values: unknown,
  types: CustomTypesConfig | undefined,
): { pipeline: Submittable; answer: Promise<QueryResult> } | undefined {
  if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) return undefined;
  let pipeline: Submittable | undefined;
  const answer = new Promise<QueryResult>((resolve, reject) => {
    pipeline = new BeginWith(begin, { text, values, types }, (error, result) =>
      error ? reject(error) : resolve(result!),
    );
  });
  return { pipeline: pipeline!, answer };
}
