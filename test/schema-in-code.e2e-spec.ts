import type { DataSource } from 'typeorm';
import { createTestDatabase, openDataSource, openMigratedDatabase } from './support/test-database';

/**
 * The entities are the schema in code: against a database the migrations made, TypeORM finds
 * nothing to change (what `npm run migration:generate` would write is empty), so the next
 * migration can be generated from the entities and read before it is committed.
 */
describe('The entities and the migrated schema (e2e)', () => {
  let database: Awaited<ReturnType<typeof openMigratedDatabase>>;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await openMigratedDatabase();
    dataSource = database.dataSource;
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
    const fresh = await openDataSource(empty.url);
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
