import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseServer } from './database-server';
import { runPendingMigrations } from './migrate';
import { typeOrmOptions } from './typeorm-options';

@Module({ providers: [DatabaseServer], exports: [DatabaseServer] })
class DatabaseServerModule {}

/** The connection pool, opened after pending migrations are applied. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      imports: [DatabaseServerModule],
      inject: [DatabaseServer, AppConfig],
      useFactory: async (server: DatabaseServer, config: AppConfig) => ({
        ...typeOrmOptions({
          url: await server.url(),
          poolSize: config.DB_POOL_SIZE,
          statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
          connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
        }),
        retryAttempts: 5,
        retryDelay: 2000,
      }),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await runPendingMigrations(dataSource);
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
