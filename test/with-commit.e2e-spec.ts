import { Client } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { sendWithCommit } from '../src/database/with-commit';
import { openMigratedDatabase } from './support/test-database';

/**
 * A statement sent with the COMMIT (`database/with-commit.ts`), on the pool the service
 * configures: written if and only if its transaction commits, in the COMMIT's round trip, its
 * values exactly as given and never in its text.
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
    let backend = 0;
    const seenInside = await dataSource.transaction(async (manager) => {
      [{ pid: backend }] = await manager.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
      await keep(manager, 'first');
      return manager.query<{ n: string }[]>('SELECT count(*) AS n FROM kept');
    });
    expect(seenInside).toEqual([{ n: '0' }]);
    // The backend's last statement as PostgreSQL received it (before the pool's connection runs
    // another), asked from another session.
    const observer = new Client({ connectionString: database.url });
    await observer.connect();
    try {
      const { rows } = await observer.query<{ query: string }>(
        'SELECT query FROM pg_stat_activity WHERE pid = $1',
        [backend],
      );
      // Its values came before, as parameters: the text holds none.
      expect(rows).toEqual([
        {
          query: `INSERT INTO kept (v) VALUES (current_setting('tributary.with_commit_1_1'));\nCOMMIT`,
        },
      ]);
    } finally {
      await observer.end();
    }
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
});
