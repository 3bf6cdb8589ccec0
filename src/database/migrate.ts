import { DataSource } from 'typeorm';
import { StartupError } from '../startup/startup-error';

/** Any constant shared by every instance; it names the lock that serialises migrations. */
const MIGRATION_LOCK = 7_404_100_001;

/** The first migration this build knows that the database has not recorded as applied. */
async function firstUnapplied(dataSource: DataSource): Promise<string | undefined> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const applied = new Set(
    (await dataSource.query<{ name: string }[]>(`SELECT name FROM "${table}"`).catch(() => [])).map(
      (row) => row.name,
    ),
  );
  return dataSource.migrations
    .map((migration) => migration.name)
    .find((name) => !applied.has(name!));
}

/**
 * Applies pending migrations. Several instances may start at once against one database: an
 * advisory lock lets one migrate while the others wait and then find nothing left to do. Each
 * migration is its own transaction, so a failed one leaves nothing of itself behind.
 */
export async function runPendingMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'each' });
  } catch (error) {
    const failed = await firstUnapplied(dataSource).catch(() => undefined);
    const cause = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new StartupError(
      `migration ${failed ?? '(unknown)'} failed (${cause}); it was rolled back and no later ` +
        `migration was applied: fix the database (or restore a backup) and start again`,
    );
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
