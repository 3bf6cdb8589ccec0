import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { EmbeddedPostgres } from '../database/embedded-postgres';
import { runPendingMigrations } from '../database/migrate';
import { typeOrmOptions } from '../database/typeorm-options';
import { waitForDatabase } from './database-wait';

export interface OpenedDatabase {
  url: string;
  /** The server the service runs itself, when there is no DATABASE_URL. */
  embedded?: EmbeddedPostgres;
}

/** A migration may rewrite a large table: far longer than any request's statement. */
const MIGRATION_STATEMENT_TIMEOUT_MS = 10 * 60_000;

async function migrate(url: string, config: AppConfig): Promise<void> {
  const dataSource = new DataSource(
    typeOrmOptions({
      url,
      // One connection holds the migrations' lock while another runs them.
      poolSize: 2,
      statementTimeoutMs: MIGRATION_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
      // Each migration's transaction sets its own limits: so it does through a pooler too.
      timeoutsIn: 'transaction',
    }),
  );
  await dataSource.initialize();
  try {
    await runPendingMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Everything about the database that can stop the service from starting, done before the
 * application is built, so that each failure is one line that says what to do: the embedded
 * server started (or DATABASE_URL waited for), then pending migrations applied.
 */
export async function openDatabase(config: AppConfig): Promise<OpenedDatabase> {
  const logger = new Logger('Database');
  let opened: OpenedDatabase;
  if (config.DATABASE_URL) {
    await waitForDatabase(
      config.DATABASE_URL,
      { timeoutMs: config.DB_STARTUP_TIMEOUT_MS, connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS },
      (message) => logger.warn(message),
    );
    opened = { url: config.DATABASE_URL };
  } else {
    const embeddedLogger = new Logger(EmbeddedPostgres.name);
    const embedded = new EmbeddedPostgres(
      config.DATA_DIR,
      {
        log: (message) => embeddedLogger.debug(message),
        notice: (message) => embeddedLogger.log(message),
        error: (message) => embeddedLogger.warn(message),
      },
      { fallbackDir: config.EMBEDDED_FALLBACK_DIR, reservedPorts: [config.PORT] },
    );
    opened = { url: await embedded.start(), embedded };
    logger.log(`embedded PostgreSQL is running with its data in ${embedded.clusterDir}`);
  }
  try {
    await migrate(opened.url, config);
  } catch (error) {
    await opened.embedded?.stop();
    throw error;
  }
  return opened;
}
