import type { Connection, QueryResult } from 'pg';

/**
 * What `pg`'s `Query` has besides what its types list: its text and callback, and the handlers
 * of the messages `pg` passes on to whatever it runs (a `Submittable`), which
 * `sent-ahead.ts` passes on to it in turn.
 */
declare module 'pg' {
  interface Query {
    text: string;
    callback?: (error: Error | null | undefined, result?: QueryResult) => void;
    handleRowDescription(message: unknown): void;
    handleDataRow(message: unknown): void;
    handleCommandComplete(message: unknown, connection: Connection): void;
    handleEmptyQuery(connection: Connection): void;
    handleError(error: Error, connection: Connection): void;
    handleReadyForQuery(connection: Connection): void;
  }
}
