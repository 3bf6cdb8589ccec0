import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { typeOrmOptions } from '../src/database/typeorm-options';
import { openDatabase } from '../src/startup/open-database';
import { createTestDatabase } from './support/test-database';

/**
 * The entities are the schema in code: against a database the migrations made, TypeORM finds
 * nothing to change (what `npm run migration:generate` would write is empty), so the next
 * migration can be generated from the entities and read before it is committed.
 */
describe('The entities and the migrated schema (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    await openDatabase(loadConfig({ LOG_LEVEL: 'fatal', DATABASE_URL: database.url }));
    dataSource = await new DataSource(
      typeOrmOptions({
        url: database.url,
        poolSize: 1,
        statementTimeoutMs: 60_000,
        connectTimeoutMs: 5_000,
      }),
    ).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database.drop();
  });

  it('leaves TypeORM nothing to change after the migrations', async () => {
    const changes = await dataSource.driver.createSchemaBuilder().log();
    expect(changes.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('would make every table of the migrations from the entities alone', async () => {
    const empty = await createTestDatabase();
    const fresh = await new DataSource(
      typeOrmOptions({
        url: empty.url,
        poolSize: 1,
        statementTimeoutMs: 60_000,
        connectTimeoutMs: 5_000,
      }),
    ).initialize();
    try {
      const creates = (await fresh.driver.createSchemaBuilder().log()).upQueries
        .map((query) => /^CREATE TABLE "(\w+)"/.exec(query.query)?.[1])
        .filter((table) => table !== undefined)
        .sort();
      const migrated = await dataSource.query<{ tablename: string }[]>(
        `SELECT tablename FROM pg_tables
          WHERE schemaname = 'public' AND tablename <> 'tributary_migrations'`,
      );
      expect(creates).toEqual(migrated.map((row) => row.tablename).sort());
    } finally {
      await fresh.destroy();
      await empty.drop();
    }
  });
});
