import { Module } from '@nestjs/common';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { ClsModule } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseServer } from './database-server';
import { runPendingMigrations } from './migrate';
import { typeOrmOptions } from './typeorm-options';

@Module({ providers: [DatabaseServer], exports: [DatabaseServer] })
class DatabaseServerModule {}

/**
 * The connection pool, opened after pending migrations are applied, and the transaction host:
 * a transaction opened by a service reaches every repository it calls (their `db.tx`) through
 * async-local storage, without a parameter threaded through each signature. Global, as the
 * pool itself is: every repository needs it.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      imports: [DatabaseServerModule],
      inject: [DatabaseServer, AppConfig],
      useFactory: (server: DatabaseServer, config: AppConfig) => ({
        ...typeOrmOptions({
          url: server.url(),
          poolSize: config.DB_POOL_SIZE,
          statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
          connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
        }),
        // Start-up already waited for the database (startup/open-database.ts): no retries here.
        toRetry: () => false,
      }),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await runPendingMigrations(dataSource);
        return dataSource;
      },
    }),
    ClsModule.forRoot({
      global: true,
      plugins: [
        new ClsPluginTransactional({
          adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }),
        }),
      ],
    }),
  ],
})
export class DatabaseModule {}
