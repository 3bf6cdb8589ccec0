import { DataSource } from 'typeorm';
import { StartupError } from '../startup/startup-error';

/** Any constant shared by every instance; it names the lock that serialises migrations. */
const MIGRATION_LOCK = 7_404_100_001;

/**
 * Applies pending migrations with TypeORM's `runMigrations`, each in a transaction of its own,
 * so that a failed one leaves nothing of itself behind. Several instances may start at once
 * against one database: each first opens a transaction that takes a transaction-level advisory
 * lock and holds it while it migrates, so one instance migrates while the others wait, and then
 * find nothing left to do (TypeORM reads what is pending only once the lock is held). The lock
 * lives and dies with its transaction, which a transaction pooler (PgBouncer) keeps on one
 * server connection: a session-level lock it would not. The data source needs two connections.
 */
export async function runPendingMigrations(dataSource: DataSource): Promise<void> {
  const lock = dataSource.createQueryRunner();
  try {
    await lock.startTransaction();
    // The lock's transaction waits while the migrations run, as long as they take.
    await lock.query('SET LOCAL idle_in_transaction_session_timeout = 0');
    await lock.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } catch (error) {
      throw new StartupError(
        `migration ${await failedMigration(dataSource)} failed (${firstLine(error)}); it was ` +
          `rolled back and no later migration was applied: fix the database (or restore a ` +
          `backup) and start again`,
      );
    }
    await lock.commitTransaction();
  } finally {
    if (lock.isTransactionActive) await lock.rollbackTransaction().catch(() => undefined);
    await lock.release();
  }
}

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0];

/** The first migration of this build that the database has not recorded: the one that failed. */
async function failedMigration(dataSource: DataSource): Promise<string> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const applied = await dataSource
    // The migrations table is TypeORM's own, with no entity of ours.
    .query<{ name: string }[]>(`SELECT name FROM "${table}"`)
    .then((rows) => new Set(rows.map((row) => row.name)))
    .catch(() => undefined);
  const failed = applied && dataSource.migrations.find((m) => !applied.has(m.name ?? ''));
  return failed?.name ?? '(unknown)';
}
