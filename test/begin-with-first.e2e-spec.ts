import { Client } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { sendWithNext } from '../src/database/with-commit';
import { countedConnection } from './support/counted-connection';

/**
 * A transaction's BEGIN sent with its first statement (`database/sent-ahead.ts`), on the
 * pool the service configures: one round trip fewer per transaction, and the same transaction.
 */
describe("A transaction's BEGIN sent with its first statement (e2e)", () => {
  const db = countedConnection();
  let dataSource: DataSource;
  beforeAll(() => {
    dataSource = db.dataSource;
  });

  /** What is in the table, as another connection sees it: only what was committed. */
  const committed = async (): Promise<string[]> => {
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      const { rows } = await other.query<{ v: string }>('SELECT v FROM kept ORDER BY n');
      return rows.map((row) => row.v);
    } finally {
      await other.end();
    }
  };

  const insert = (manager: EntityManager, value: string) =>
    manager.query('INSERT INTO kept (v) VALUES ($1)', [value]);

  it('sends the BEGIN in the round trip of the first statement, which runs inside the transaction', async () => {
    const trips = await db.roundTripsOf(() =>
      dataSource.transaction(async (manager) => {
        await insert(manager, 'first');
        await insert(manager, 'second');
      }),
    );
    // BEGIN with the first insert, the second, the COMMIT: three, where a BEGIN of its own made four.
    expect(trips).toBe(3);
    expect(await committed()).toEqual(['first', 'second']);

    await expect(
      dataSource.transaction(async (manager) => {
        await insert(manager, 'rolled back');
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await committed()).toEqual(['first', 'second']);
  });

  it("answers the first statement as any other: its rows, read with the service's type parsers, and its count", async () => {
    const statement = `SELECT $1::int8 AS big, $2::text[] AS tags, $3::int AS n
                         FROM generate_series(1, 2)`;
    const values = ['9007199254740993', '{a,"b c"}', '7'];
    const [first, later] = await dataSource.transaction(async (manager) => {
      const runner = manager.queryRunner!;
      const one = await runner.query(statement, values, true);
      const two = await runner.query(statement, values, true);
      return [one, two] as const;
    });
    expect(first.records).toEqual([
      { big: '9007199254740993', tags: ['a', 'b c'], n: 7 },
      { big: '9007199254740993', tags: ['a', 'b c'], n: 7 },
    ]);
    expect(first.records).toEqual(later.records);
    expect(first.affected).toBe(2);
    await dataSource.query(`INSERT INTO kept (v) VALUES ('a'), ('b')`);
    const updated = await dataSource.transaction((manager) =>
      manager.queryRunner!.query('UPDATE kept SET v = v || $1', ['!'], true),
    );
    expect(updated.affected).toBe(2);
    expect(await committed()).toEqual(['a!', 'b!']);
  });

  it('fails the transaction when the first statement fails: its error, nothing written, the connection goes on', async () => {
    await dataSource.query(`INSERT INTO kept (v) VALUES ('taken')`);
    await expect(
      dataSource.transaction(async (manager) => {
        await insert(manager, 'taken');
      }),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505' }) });
    await expect(
      dataSource.transaction((manager) => manager.query('SELECT $1::int', ['not a number'])),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '22P02' }) });
    await dataSource.transaction((manager) => insert(manager, 'after'));
    expect(await committed()).toEqual(['taken', 'after']);
  });

  it('fails the transaction when a value of the first statement cannot be sent: nothing written, the connection goes on', async () => {
    const unsendable = {
      toPostgres: () => {
        throw new Error('no text for this value');
      },
    };
    await expect(
      dataSource.transaction((manager) =>
        manager.query('INSERT INTO kept (v) VALUES ($1)', [unsendable]),
      ),
    ).rejects.toThrow('no text for this value');
    await dataSource.transaction((manager) => insert(manager, 'after'));
    expect(await committed()).toEqual(['after']);
  });

  it('sends no BEGIN, COMMIT or ROLLBACK for a transaction that sends nothing, and leaves none open', async () => {
    expect(await db.roundTripsOf(() => dataSource.transaction(() => Promise.resolve()))).toBe(0);
    const failing = dataSource.transaction(() => Promise.reject(new Error('before any statement')));
    expect(await db.roundTripsOf(() => failing.catch(() => undefined))).toBe(0);
    await expect(failing).rejects.toThrow('before any statement');
    // Outside any transaction: committed at once, as another connection sees.
    await dataSource.query(`INSERT INTO kept (v) VALUES ('alone')`);
    expect(await committed()).toEqual(['alone']);
  });

  it('sends a BEGIN of its own before a first statement without values, which may be several', async () => {
    const trips = await db.roundTripsOf(() =>
      dataSource.transaction(async (manager) => {
        await manager.query(
          `INSERT INTO kept (v) VALUES ('one'); INSERT INTO kept (v) VALUES ('two')`,
        );
      }),
    );
    expect(trips).toBe(3);
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(`INSERT INTO kept (v) VALUES ('rolled back')`);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await committed()).toEqual(['one', 'two']);
  });

  it('keeps the isolation level a transaction asks for', async () => {
    const level = await dataSource.transaction('SERIALIZABLE', (manager) =>
      manager.query<{ level: string }[]>(`SELECT current_setting($1) AS level`, [
        'transaction_isolation',
      ]),
    );
    expect(level).toEqual([{ level: 'serializable' }]);
  });

  it('sends the BEGIN, the statements sent ahead of the COMMIT and the COMMIT in one round trip when nothing else is sent', async () => {
    const keep = (manager: EntityManager, value: string) =>
      sendWithNext(manager, 'INSERT INTO kept (v) VALUES ($1)', [value]);
    expect(
      await db.roundTripsOf(() => dataSource.transaction((manager) => keep(manager, 'kept'))),
    ).toBe(1);
    const dropped = dataSource.transaction(async (manager) => {
      await keep(manager, 'dropped');
      throw new Error('the change fails');
    });
    expect(await db.roundTripsOf(() => dropped.catch(() => undefined))).toBe(0);
    await dataSource.query(`INSERT INTO kept (v) VALUES ('taken')`);
    await expect(dataSource.transaction((manager) => keep(manager, 'taken'))).rejects.toMatchObject(
      { driverError: expect.objectContaining({ code: '23505' }) },
    );
    await dataSource.transaction((manager) => insert(manager, 'after'));
    expect(await committed()).toEqual(['kept', 'taken', 'after']);
  });
});
