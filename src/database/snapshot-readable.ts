import { Readable } from 'node:stream';
import type { Db } from './transaction-host';

/** Ends the reading when the one reading it has gone (its stream destroyed). */
class ReaderGone extends Error {}

/**
 * A readable stream of the pieces `produce` makes, produced in one read-only transaction at
 * REPEATABLE READ, so that every query of it sees the database as of one instant however long
 * the sending takes. The transaction (and its connection) lasts until the last piece is read
 * or the stream is destroyed (the client went away); a piece is produced only when the
 * stream's reader wants more, so at most one is held at a time.
 *
 * Resolves with the stream once the first piece is ready, and rejects if producing it failed:
 * until then nothing has been sent and the failure is the request's. A later failure destroys
 * the stream with it.
 */
export function snapshotReadable(
  db: Db,
  produce: () => AsyncIterable<string | Uint8Array>,
): Promise<Readable> {
  return new Promise((resolve, reject) => {
    let wanted: (() => void) | undefined;
    let gone = false;
    const wakeProducer = () => {
      const wake = wanted;
      wanted = undefined;
      wake?.();
    };
    const stream = new Readable({
      read: wakeProducer,
      destroy(error, callback) {
        gone = true;
        wakeProducer();
        callback(error);
      },
    });
    let started = false;
    const start = () => {
      if (!started) {
        started = true;
        resolve(stream);
      }
    };
    db.withTransaction({ isolationLevel: 'REPEATABLE READ' }, async () => {
      await db.tx.query('SET TRANSACTION READ ONLY');
      for await (const piece of produce()) {
        if (gone) throw new ReaderGone();
        const more = stream.push(piece);
        start();
        if (!more) await new Promise<void>((wake) => (wanted = wake));
        if (gone) throw new ReaderGone();
      }
      stream.push(null);
      start();
    }).catch((error: Error) => {
      if (!started) reject(error);
      else if (!(error instanceof ReaderGone)) stream.destroy(error);
    });
  });
}
