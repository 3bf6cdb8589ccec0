import { Client } from 'pg';
import Cursor from 'pg-cursor';
import { DataSource, type EntityManager } from 'typeorm';
import { sendWithNext } from '../src/database/with-commit';
import { countedConnection } from './support/counted-connection';

/**
 * A statement whose answer no one reads, sent with the transaction's next statement
 * (`database/with-commit.ts`), on the pool the service configures: in that statement's round
 * trip, before it, written if and only if its transaction commits, its values exactly as given;
 * its failure is that statement's, or the COMMIT's.
 */
describe("A statement sent with the transaction's next one (e2e)", () => {
  const db = countedConnection();
  let dataSource: DataSource;
  beforeAll(() => {
    dataSource = db.dataSource;
  });

  const values = async (): Promise<string[]> =>
    (await dataSource.query<{ v: string }[]>('SELECT v FROM kept ORDER BY n')).map((r) => r.v);
  const keep = (manager: EntityManager, value: string) =>
    sendWithNext(manager, 'INSERT INTO kept (v) VALUES ($1)', [value]);
  const seen = (manager: EntityManager) =>
    manager.query<{ v: string }[]>('SELECT v FROM kept WHERE v <> $1 ORDER BY n', ['']);
  const duplicate = { driverError: expect.objectContaining({ code: '23505' }) };

  it('goes in the round trip of the next statement, before it: that statement sees its write', async () => {
    const trips: number[] = [];
    const inside = await dataSource.transaction(async (manager) => {
      const start = db.roundTrips;
      const before = await seen(manager);
      trips.push(db.roundTrips - start);
      await keep(manager, 'first');
      trips.push(db.roundTrips - start);
      const after = await seen(manager);
      trips.push(db.roundTrips - start);
      return { before, after };
    });
    expect(inside).toEqual({ before: [], after: [{ v: 'first' }] });
    // The first SELECT carried the BEGIN (begin-with-first.e2e-spec.ts); the statement sent
    // nothing of its own, and went with the second.
    expect(trips).toEqual([1, 1, 2]);
    expect(await values()).toEqual(['first']);
  });

  it('goes with the COMMIT, in its round trip, when nothing follows it', async () => {
    let beforeCommit = 0;
    const start = db.roundTrips;
    await dataSource.transaction(async (manager) => {
      await seen(manager);
      await keep(manager, 'last');
      beforeCommit = db.roundTrips - start;
    });
    expect(beforeCommit).toBe(1);
    expect(db.roundTrips - start).toBe(2);
    expect(await values()).toEqual(['last']);
  });

  it('keeps the statements of one transaction apart, each with its own values', async () => {
    await dataSource.transaction(async (manager) => {
      await keep(manager, 'one');
      await sendWithNext(manager, 'INSERT INTO kept (v) VALUES ($2), ($1)', ['three', 'two']);
    });
    expect(await values()).toEqual(['one', 'two', 'three']);
  });

  it('keeps text exactly: quotes, backslashes, newlines, JSON and other scripts', async () => {
    const texts = [
      `it's`,
      `''; DROP TABLE kept; --`,
      'back\\slash \\\\ \\n',
      'line\nbreak',
      '{"a":"b\\"c"}',
      'ünï 世界 😀',
      '$1 $2',
    ];
    await dataSource.transaction(async (manager) => {
      for (const text of texts) await keep(manager, text);
    });
    expect(await values()).toEqual(texts);
  });

  it('is dropped by a rollback, and the next transaction on the connection does not carry it', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await keep(manager, 'rolled back');
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await dataSource.transaction(async (manager) => keep(manager, 'next'));
    await dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO kept (v) VALUES ('without one')`);
    });
    expect(await values()).toEqual(['next', 'without one']);
  });

  it('fails the commit when it fails: nothing of the transaction is written, the connection goes on', async () => {
    await dataSource.query(`INSERT INTO kept (v) VALUES ('taken')`);
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(`INSERT INTO kept (v) VALUES ('written before it')`);
        await keep(manager, 'taken');
      }),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505' }) });
    await dataSource.transaction(async (manager) => keep(manager, 'after'));
    expect(await values()).toEqual(['taken', 'after']);
  });

  it.each([
    ['an object', { a: 1 }],
    ['a number that is not finite', Number.NaN],
    ['null', null],
    ['an array holding null', ['a', null]],
    ['an array of arrays', [['a']]],
  ])(
    'refuses %s as a value before sending anything: the change fails whole',
    async (_what, value) => {
      await expect(
        dataSource.transaction(async (manager) => {
          await manager.query(`INSERT INTO kept (v) VALUES ('written before it')`);
          await sendWithNext(manager, 'INSERT INTO kept (v) VALUES ($1)', [value]);
        }),
      ).rejects.toThrow(
        new TypeError('$1: only text, finite numbers and arrays of them are sent ahead'),
      );
      await dataSource.transaction(async (manager) => keep(manager, 'after'));
      expect(await values()).toEqual(['after']);
    },
  );

  it('sends arrays of text and of numbers as array literals that PostgreSQL reads back exactly', async () => {
    const texts = ['a"b', 'back\\slash', 'comma,brace}{', 'NULL', '', ' spaced ', "it's", 'ünï 😀'];
    const numbers = [0.1, 1 / 3, -2, 1e300, 5e-324, 0];
    await dataSource.transaction(async (manager) => {
      await sendWithNext(
        manager,
        `INSERT INTO kept (v) SELECT t FROM unnest($1::text[]) WITH ORDINALITY AS x (t, i) ORDER BY i`,
        [texts],
      );
      await sendWithNext(
        manager,
        `INSERT INTO kept (v) SELECT 'n' || i || ':' || f FROM unnest($1::float8[]) WITH ORDINALITY AS x (f, i)`,
        [numbers],
      );
    });
    const kept = await values();
    expect(kept.slice(0, texts.length)).toEqual(texts);
    expect(kept.slice(texts.length).map((v) => Number(v.slice(v.indexOf(':') + 1)))).toEqual(
      numbers,
    );
  });

  it('fails the next statement when it fails, with its error: nothing is written, the connection goes on', async () => {
    await dataSource.query(`INSERT INTO kept (v) VALUES ('taken')`);
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(`INSERT INTO kept (v) VALUES ('written before it')`);
        await keep(manager, 'taken');
        await seen(manager);
      }),
    ).rejects.toMatchObject(duplicate);
    await dataSource.transaction(async (manager) => keep(manager, 'after'));
    expect(await values()).toEqual(['taken', 'after']);
  });

  it('fails the COMMIT with its error even when the caller caught it and went on', async () => {
    await dataSource.query(`INSERT INTO kept (v) VALUES ('taken')`);
    let caught: unknown;
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(`INSERT INTO kept (v) VALUES ('written before it')`);
        await keep(manager, 'taken');
        caught = await seen(manager).catch((error: unknown) => error);
        await manager.query(`SELECT 1 AS one`).catch(() => undefined);
      }),
    ).rejects.toMatchObject(duplicate);
    expect(caught).toMatchObject(duplicate);
    expect(await values()).toEqual(['taken']);
  });

  it('goes on its own just before a statement without values, which then sees its write or answers its error', async () => {
    const inside = await dataSource.transaction(async (manager) => {
      await keep(manager, 'simple');
      return manager.query<{ v: string }[]>(`SELECT v FROM kept`);
    });
    expect(inside).toEqual([{ v: 'simple' }]);
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(`INSERT INTO kept (v) VALUES ('written before it')`);
        await keep(manager, 'simple');
        await manager.query(`SELECT v FROM kept`);
      }),
    ).rejects.toMatchObject(duplicate);
    expect(await values()).toEqual(['simple']);
  });

  it('goes on its own just before a cursor, which reads its write; when it fails, so does the COMMIT, with its error', async () => {
    const read = (manager: EntityManager) =>
      manager.queryRunner!.connect().then(async (client: Client) => {
        const cursor = client.query(new Cursor<{ v: string }>('SELECT v FROM kept'));
        try {
          return await cursor.read(10);
        } finally {
          await cursor.close();
        }
      });
    expect(
      await dataSource.transaction(async (manager) => {
        await keep(manager, 'read by a cursor');
        return read(manager);
      }),
    ).toEqual([{ v: 'read by a cursor' }]);
    let cursorError: unknown;
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(`INSERT INTO kept (v) VALUES ('written before it')`);
        await keep(manager, 'read by a cursor');
        cursorError = await read(manager).catch((error: unknown) => error);
      }),
    ).rejects.toMatchObject(duplicate);
    // PostgreSQL skipped the cursor's statement in the aborted transaction.
    expect(cursorError).toMatchObject({ code: '25P02' });
    expect(await values()).toEqual(['read by a cursor']);
  });

  it('is undone by a rollback to a savepoint taken before it, and the transaction goes on to commit', async () => {
    await dataSource.query(`INSERT INTO kept (v) VALUES ('taken')`);
    await dataSource.transaction(async (manager) => {
      await keep(manager, 'before the savepoint');
      // TypeORM's nested transaction: a SAVEPOINT, and a ROLLBACK TO it when it fails.
      await expect(
        manager.transaction(async (inner) => {
          await keep(inner, 'taken');
          await seen(inner);
        }),
      ).rejects.toMatchObject(duplicate);
      await manager.transaction((inner) => keep(inner, 'after the savepoint'));
    });
    expect(await values()).toEqual(['taken', 'before the savepoint', 'after the savepoint']);
  });

  it('runs at once outside a transaction', async () => {
    await sendWithNext(dataSource.manager, 'INSERT INTO kept (v) VALUES ($1)', ['alone']);
    expect(await values()).toEqual(['alone']);
  });

  it('runs at once, with its values as parameters, on a connection of a pool without the committing client, and a rollback undoes it', async () => {
    const plain = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    try {
      const seenInside = await plain.transaction(async (manager) => {
        await sendWithNext(manager, 'INSERT INTO kept (v) VALUES ($1)', [`it's`]);
        return manager.query<{ v: string }[]>('SELECT v FROM kept');
      });
      expect(seenInside).toEqual([{ v: `it's` }]);
      await expect(
        plain.transaction(async (manager) => {
          await sendWithNext(manager, 'INSERT INTO kept (v) VALUES ($1)', ['gone']);
          throw new Error('the change fails');
        }),
      ).rejects.toThrow('the change fails');
    } finally {
      await plain.destroy();
    }
    expect(await values()).toEqual([`it's`]);
  });
});
