import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { openMigratedDatabase } from './test-database';

/** A migrated database on a pool of one connection, whose round trips are counted. */
export interface CountedConnection {
  readonly dataSource: DataSource;
  readonly url: string;
  /** The round trips of the pool's one connection so far. */
  readonly roundTrips: number;
  /** The round trips `work` costs the connection. */
  roundTripsOf(work: () => Promise<unknown>): Promise<number>;
}

/**
 * Opens, for the tests of the enclosing `describe`, a migrated database on the pool the service
 * configures with one connection (every transaction meets what the one before it left), with a
 * table `kept (n serial, v text UNIQUE)` emptied before each test. A round trip ends with
 * PostgreSQL's ReadyForQuery, counted on that connection.
 */
export function countedConnection(): CountedConnection {
  let database: Awaited<ReturnType<typeof openMigratedDatabase>>;
  let connection: Client | undefined;
  let roundTrips = 0;
  const count = () => roundTrips++;

  beforeAll(async () => {
    database = await openMigratedDatabase(1);
    await database.dataSource.query('CREATE TABLE kept (n serial PRIMARY KEY, v text UNIQUE)');
    connection = (await database.dataSource.transaction((manager) =>
      manager.queryRunner!.connect(),
    )) as Client;
    connection.connection.on('readyForQuery', count);
  });
  beforeEach(() => database.dataSource.query('TRUNCATE kept'));
  afterAll(async () => {
    connection?.connection.off('readyForQuery', count);
    await database?.dataSource.destroy();
    await database?.drop();
  });

  return {
    get dataSource() {
      return database.dataSource;
    },
    get url() {
      return database.url;
    },
    get roundTrips() {
      return roundTrips;
    },
    async roundTripsOf(work) {
      const before = roundTrips;
      await work();
      return roundTrips - before;
    },
  };
}
