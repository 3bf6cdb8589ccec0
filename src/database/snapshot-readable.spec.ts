import type { Readable } from 'node:stream';
import type { Db } from './transaction-host';
import { snapshotReadable } from './snapshot-readable';

/** A transaction host that runs the work at once and records what became of it. */
function recordingDb() {
  const record = { options: [] as unknown[], statements: [] as string[], ended: [] as string[] };
  const db = {
    tx: {
      query: (sql: string) => {
        record.statements.push(sql);
        return Promise.resolve([]);
      },
    },
    withTransaction: async (options: unknown, work: () => Promise<unknown>) => {
      record.options.push(options);
      try {
        const result = await work();
        record.ended.push('commit');
        return result;
      } catch (error) {
        record.ended.push('rollback');
        throw error;
      }
    },
  };
  return { db: db as unknown as Db, record };
}

async function readAll(stream: Readable): Promise<string> {
  let all = '';
  for await (const chunk of stream) all += String(chunk);
  return all;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
/** As a database read would: the pieces come after an await. */
const read = () => Promise.resolve();

describe('snapshotReadable', () => {
  it('produces every piece in one read-only REPEATABLE READ transaction, then commits', async () => {
    const { db, record } = recordingDb();
    async function* pieces() {
      await read();
      yield 'a';
      yield 'b';
      yield 'c';
    }
    const stream = await snapshotReadable(db, pieces);
    expect(await readAll(stream)).toBe('abc');
    await settle();
    expect(record.options).toEqual([{ isolationLevel: 'REPEATABLE READ' }]);
    expect(record.statements).toEqual(['SET TRANSACTION READ ONLY']);
    expect(record.ended).toEqual(['commit']);
  });

  it('rejects, sending nothing, when the first piece cannot be made', async () => {
    const { db, record } = recordingDb();
    const pieces = (): AsyncIterable<string> => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('scope not found')) }),
    });
    await expect(snapshotReadable(db, pieces)).rejects.toThrow('scope not found');
    expect(record.ended).toEqual(['rollback']);
  });

  it('destroys the stream with a failure after the first piece', async () => {
    const { db, record } = recordingDb();
    async function* pieces() {
      await read();
      yield 'a';
      throw new Error('connection lost');
    }
    const stream = await snapshotReadable(db, pieces);
    await expect(readAll(stream)).rejects.toThrow('connection lost');
    expect(record.ended).toEqual(['rollback']);
  });

  it('makes a piece only when the reader wants one, and stops when the reader goes', async () => {
    const { db, record } = recordingDb();
    let made = 0;
    let finished = false;
    async function* pieces() {
      await read();
      try {
        for (;;) {
          made++;
          yield 'x'.repeat(64 * 1024);
        }
      } finally {
        finished = true;
      }
    }
    const stream = await snapshotReadable(db, pieces);
    await settle();
    // Nothing read: only what fills the stream's buffer has been made.
    expect(made).toBeLessThan(4);
    stream.destroy();
    await settle();
    await settle();
    expect(finished).toBe(true);
    expect(record.ended).toEqual(['rollback']);
  });
});
