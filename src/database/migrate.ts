import { DataSource } from 'typeorm';

/** Any constant shared by every instance; it names the lock that serialises migrations. */
const MIGRATION_LOCK = 7_404_100_001;

/**
 * Applies pending migrations. Several instances may start at once against one database: an
 * advisory lock lets one migrate while the others wait and then find nothing left to do.
 */
export async function runPendingMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
