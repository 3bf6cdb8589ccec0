/**
 * What the service uses of `pg-cursor` (which ships no types of its own): reading a portal's
 * rows a batch at a time, closing it, and the handlers of the messages `pg` passes on to
 * whatever it runs (a `Submittable`), which `portal-batches.ts` extends.
 */
declare module 'pg-cursor' {
  import type { Submittable } from 'pg';

  class Cursor<Row = Record<string, unknown>> implements Submittable {
    constructor(text: string, values?: unknown[]);
    submit: Submittable['submit'];
    read(rows: number): Promise<Row[]>;
    close(): Promise<void>;
    handleReadyForQuery(): void;
    handleError(error: Error): void;
  }

  export = Cursor;
}
