import Cursor from 'pg-cursor';
import type { Client } from 'pg';
import type { EntityManager } from 'typeorm';

/** A statement to read through a portal: its SQL and values, from the start or after a row. */
export type PortalStatement<Row> = (after: Row | undefined) => { sql: string; values: unknown[] };

/** A portal's longest life, as a share of the statement time limit in force. */
const SHARE_OF_LIMIT = 0.5;

/** With no statement time limit in force: how long a portal lives, or waits for its reader. */
const UNLIMITED_LIFE_MS = 1000;

type RawRow = Record<string, unknown>;

/**
 * A long list's rows, `size` at a time, from one portal of one statement (`pg-cursor`, on the
 * connection of the manager's transaction). PostgreSQL runs the statement once and hands its
 * rows over a batch at a time, where a keyset statement per batch seeks its index and is
 * parsed and answered anew each time, and `pg` gathers each answer's rows in an array that V8
 * allocates in its old generation, where they linger (BENCHMARKS.md, "One portal per list").
 *
 * The time limits stay PostgreSQL's (docs/ARCHITECTURE.md, "Time limits"). An open portal is
 * one statement still running: its `statement_timeout` runs from its first row and does not
 * start again for the next batch, and while the service waits for a slow reader the session is
 * not idle, so `idle_in_transaction_session_timeout` does not apply. A portal therefore lives
 * only while its batches are taken without a pause, and for at most half the time limit: when
 * the reader keeps a batch longer, or the portal is older, it is closed, which ends its
 * statement, and the next batch comes from another, opened after the last row read.
 */
export async function* portalBatches<Row>(
  manager: EntityManager,
  statement: PortalStatement<Row>,
  size: number,
  hydrate: (rows: RawRow[]) => Row[],
): AsyncGenerator<Row[]> {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive || runner.isReleased) {
    // Batches after batches come from one snapshot only in a transaction.
    throw new Error('a portal is read in a transaction only');
  }
  // TypeORM types the connection as `any`: it is the driver's, a `pg` PoolClient.
  const connection = (await runner.connect()) as Client;
  const lifeMs = await portalLifeMs(connection);
  let portal: Portal | undefined;
  let opened = 0;
  let last: Row | undefined;
  /** The close of a portal whose reader kept a batch too long: awaited before the next read. */
  let closing: Promise<void> | undefined;
  const close = () => {
    const closed = portal?.end();
    portal = undefined;
    return closed;
  };
  try {
    for (;;) {
      if (portal && performance.now() - opened > lifeMs) await close();
      if (!portal) {
        const { sql, values } = statement(last);
        portal = connection.query(new Portal(sql, values));
        opened = performance.now();
      }
      const rows = hydrate(await portal.read(size));
      if (rows.length < size) {
        yield rows;
        return;
      }
      last = rows[rows.length - 1];
      const idle = setTimeout(() => {
        closing = close();
      }, lifeMs);
      try {
        yield rows;
      } finally {
        clearTimeout(idle);
      }
      const closed = closing;
      closing = undefined;
      await closed;
    }
  } finally {
    // The reader gone or a read failed: whatever the close answers, the transaction's owner
    // ends the transaction.
    await Promise.all([closing, close()]).catch(() => undefined);
  }
}

/**
 * A `pg-cursor` that tells `pg` when it is done. `pg` bounds the wait for each statement it is
 * given (`query_timeout`) with a timer that only the statement's `callback` clears, which
 * `pg-cursor` never calls (https://github.com/brianc/node-postgres/issues/3475): the timer
 * would fail the cursor long after it ended, and hold it and its last rows until then. Its
 * handlers are those `pg` calls on whatever it runs (its `Submittable`s): called once the
 * portal has ended, at PostgreSQL's ready-for-query that follows its close, or at an error.
 */
class Portal extends Cursor<RawRow> {
  /** Set by `pg`'s `Client.query`: its wrapper clears the read timeout. */
  callback?: (error?: Error) => void;

  private over = false;
  private ended?: () => void;
  /** Settled once the portal has ended: closed or complete, or failed with its connection. */
  private readonly settled = new Promise<void>((resolve) => (this.ended = resolve));

  /**
   * Ends the portal, unless it has ended. A close waits for PostgreSQL's ready-for-query, which
   * a connection lost never sends: `pg`'s error for it ends the wait instead.
   */
  end(): Promise<void> {
    if (!this.over) this.close().catch(() => undefined);
    return this.settled;
  }

  override handleReadyForQuery(): void {
    super.handleReadyForQuery();
    this.done();
  }

  override handleError(error: Error): void {
    super.handleError(error);
    this.done(error);
  }

  private done(error?: Error): void {
    const callback = this.callback;
    this.callback = undefined;
    callback?.(error);
    this.over = true;
    this.ended?.();
  }
}

/** How long a portal may live: half the statement time limit of the transaction, if any. */
async function portalLifeMs(connection: Client): Promise<number> {
  const { rows } = await connection.query<{ ms: string }>(
    "SELECT extract(epoch FROM current_setting('statement_timeout')::interval) * 1000 AS ms",
  );
  const limitMs = Number(rows[0].ms);
  return limitMs > 0 ? limitMs * SHARE_OF_LIMIT : UNLIMITED_LIFE_MS;
}
