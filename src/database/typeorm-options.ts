import { DataSourceOptions } from 'typeorm';
import { migrations } from '../../migrations';
import { TypeOrmLogger } from './typeorm-logger';

export interface ConnectionSettings {
  url: string;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

/** The one definition of how this service talks to PostgreSQL, for the app and the CLI alike. */
export function typeOrmOptions(settings: ConnectionSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    // No entities: every table is reached through its repository's SQL (see the repositories).
    entities: [],
    migrations,
    migrationsTableName: 'tributary_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logger: new TypeOrmLogger(),
    migrationsRun: false,
    extra: {
      max: settings.poolSize,
      application_name: 'tributary',
      connectionTimeoutMillis: settings.connectTimeoutMs,
      statement_timeout: settings.statementTimeoutMs,
      // A lost network answers nothing: the client gives up shortly after the server would.
      query_timeout: settings.statementTimeoutMs + 1000,
      idle_in_transaction_session_timeout: settings.statementTimeoutMs * 2,
      keepAlive: true,
    },
  };
}
