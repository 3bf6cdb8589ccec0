import { Client } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { sendWithCommit } from '../src/database/with-commit';
import { openMigratedDatabase } from './support/test-database';

/**
 * A statement sent with the COMMIT (`database/with-commit.ts`), on the pool the service
 * configures: written if and only if its transaction commits, in the COMMIT's round trip, its
 * values exactly as given.
 */
describe('A statement sent with the COMMIT (e2e)', () => {
  let database: Awaited<ReturnType<typeof openMigratedDatabase>>;
  let dataSource: DataSource;

  const values = async (): Promise<string[]> =>
    (await dataSource.query<{ v: string }[]>('SELECT v FROM kept ORDER BY n')).map((r) => r.v);
  const keep = (manager: EntityManager, value: string) =>
    sendWithCommit(manager.queryRunner!, 'INSERT INTO kept (v) VALUES ($1)', [value]);

  beforeAll(async () => {
    // One connection: what one transaction leaves behind, the next would meet.
    database = await openMigratedDatabase(1);
    dataSource = database.dataSource;
    await dataSource.query('CREATE TABLE kept (n serial PRIMARY KEY, v text UNIQUE)');
  });
  beforeEach(() => dataSource.query('TRUNCATE kept'));
  afterAll(async () => {
    await dataSource?.destroy();
    await database.drop();
  });

  it('is run by the commit, in its round trip, and not before', async () => {
    // A round trip ends with PostgreSQL's ReadyForQuery: counted on the transaction's connection.
    let roundTrips = 0;
    let beforeCommit = 0;
    let connection: Client | undefined;
    const count = () => roundTrips++;
    try {
      const seenInside = await dataSource.transaction(async (manager) => {
        connection = (await manager.queryRunner!.connect()) as Client;
        connection.connection.on('readyForQuery', count);
        await keep(manager, 'first');
        const seen = await manager.query<{ n: string }[]>(
          'SELECT count(*) AS n FROM kept WHERE v <> $1',
          [''],
        );
        beforeCommit = roundTrips;
        return seen;
      });
      expect(seenInside).toEqual([{ n: '0' }]);
      expect(roundTrips - beforeCommit).toBe(1);
    } finally {
      connection?.connection.off('readyForQuery', count);
    }
    // The SELECT (with the BEGIN: begin-with-first.e2e-spec.ts) was the only round trip before the COMMIT's.
    expect(beforeCommit).toBe(1);
    expect(await values()).toEqual(['first']);
  });

  it('keeps the statements of one transaction apart, each with its own values', async () => {
    await dataSource.transaction(async (manager) => {
      await keep(manager, 'one');
      await sendWithCommit(manager.queryRunner!, 'INSERT INTO kept (v) VALUES ($2), ($1)', [
        'three',
        'two',
      ]);
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
  ])(
    'refuses %s as a value before sending anything: the change fails whole',
    async (_what, value) => {
      await expect(
        dataSource.transaction(async (manager) => {
          await manager.query(`INSERT INTO kept (v) VALUES ('written before it')`);
          await sendWithCommit(manager.queryRunner!, 'INSERT INTO kept (v) VALUES ($1)', [value]);
        }),
      ).rejects.toThrow(new TypeError('$1: only text and finite numbers are sent with a COMMIT'));
      await dataSource.transaction(async (manager) => keep(manager, 'after'));
      expect(await values()).toEqual(['after']);
    },
  );

  it('runs at once, with its values as parameters, on a connection of a pool without the committing client', async () => {
    const plain = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    try {
      const seenInside = await plain.transaction(async (manager) => {
        await sendWithCommit(manager.queryRunner!, 'INSERT INTO kept (v) VALUES ($1)', [`it's`]);
        return manager.query<{ v: string }[]>('SELECT v FROM kept');
      });
      expect(seenInside).toEqual([{ v: `it's` }]);
      await expect(
        plain.transaction(async (manager) => {
          await sendWithCommit(manager.queryRunner!, 'INSERT INTO kept (v) VALUES ($1)', ['gone']);
          throw new Error('the change fails');
        }),
      ).rejects.toThrow('the change fails');
    } finally {
      await plain.destroy();
    }
    expect(await values()).toEqual([`it's`]);
  });
});
