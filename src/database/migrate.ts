import { DataSource, MigrationExecutor } from 'typeorm';
import { StartupError } from '../startup/startup-error';
import { transactionTimeouts } from './typeorm-options';

/** Any constant shared by every instance; it names the lock that serialises migrations. */
const MIGRATION_LOCK = 7_404_100_001;

/**
 * Applies pending migrations, each in a transaction of its own, so that a failed one leaves
 * nothing of itself behind. Several instances may start at once against one database: each
 * transaction first takes a transaction-level advisory lock, and only then reads which
 * migration comes next, so one instance migrates while the others wait and then find nothing
 * left to do. The lock lives and dies with its transaction, which a transaction pooler
 * (PgBouncer) keeps on one server connection: a session-level lock it would not.
 */
export async function runPendingMigrations(
  dataSource: DataSource,
  statementTimeoutMs: number,
): Promise<void> {
  const runner = dataSource.createQueryRunner();
  const executor = new MigrationExecutor(dataSource, runner);
  let current: string | undefined;
  try {
    for (;;) {
      current = undefined;
      await runner.startTransaction();
      await runner.query(transactionTimeouts(statementTimeoutMs));
      await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const [next] = await executor.getPendingMigrations();
      if (!next) break;
      current = next.name;
      await executor.executeMigration(next);
      await runner.commitTransaction();
      dataSource.logger.logSchemaBuild(`migration ${current} applied`);
    }
    await runner.commitTransaction();
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    const cause = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new StartupError(
      `migration ${current ?? '(unknown)'} failed (${cause}); it was rolled back and no later ` +
        `migration was applied: fix the database (or restore a backup) and start again`,
    );
  } finally {
    await runner.release();
  }
}
