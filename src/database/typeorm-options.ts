import type * as pg from 'pg';
import { DataSourceOptions } from 'typeorm';
import { migrations } from '../../migrations';
import { entities } from './entities';
import { transactionLimitedClient } from './transaction-limited-client';
import { committingClient } from './with-commit';
import { TypeOrmLogger } from './typeorm-logger';
import { typeParsers } from './type-parsers';

export interface ConnectionSettings {
  url: string;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
  /**
   * Where the time limits are set. `session` (the default, a direct connection): on each
   * connection when it opens. `transaction`: nothing is set on the connections, whose sessions
   * are not the service's own (a transaction pooler refuses or ignores session settings), and
   * each transaction sets its own ({@link transactionTimeouts}).
   */
  timeoutsIn?: 'session' | 'transaction';
  /** The `pg` module TypeORM uses (`ConnectionPool.driver`, which knows its pool); `pg` itself by default. */
  driver?: typeof pg;
}

/** How long a transaction may wait for its client (a slow reader, say) before it is ended. */
const idleInTransactionMs = (statementTimeoutMs: number): number => statementTimeoutMs * 2;

/** The statements that bound the rest of the transaction they are sent in. */
export function transactionTimeouts(statementTimeoutMs: number): string {
  return (
    `SET LOCAL statement_timeout = ${statementTimeoutMs}; ` +
    `SET LOCAL idle_in_transaction_session_timeout = ${idleInTransactionMs(statementTimeoutMs)}`
  );
}

/**
 * The one definition of how this service talks to PostgreSQL, for the app, the start-up's
 * migrations and the TypeORM CLI alike.
 */
export function typeOrmOptions(settings: ConnectionSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    driver: settings.driver,
    entities,
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
      ...(settings.timeoutsIn === 'transaction'
        ? {
            Client: transactionLimitedClient(
              transactionTimeouts(settings.statementTimeoutMs),
              committingClient(),
            ),
          }
        : {
            Client: committingClient(),
            statement_timeout: settings.statementTimeoutMs,
            idle_in_transaction_session_timeout: idleInTransactionMs(settings.statementTimeoutMs),
          }),
      // A lost network answers nothing: the client gives up shortly after the server would.
      query_timeout: settings.statementTimeoutMs + 1000,
      keepAlive: true,
      types: typeParsers,
    },
  };
}
