import { Module } from '@nestjs/common';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { ClsModule } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { ConnectionPool } from './connection-pool';
import { DatabaseServer } from './database-server';
import { typeOrmOptions } from './typeorm-options';

@Module({ providers: [DatabaseServer, ConnectionPool], exports: [DatabaseServer, ConnectionPool] })
export class DatabaseServerModule {}

/**
 * The data source and its pool (start-up has applied pending migrations:
 * startup/open-database.ts), and the transaction host: a transaction opened by a service
 * reaches every repository it calls (their `db.tx`, an `EntityManager`) through async-local
 * storage, without a parameter threaded through each signature. Global, as the pool itself
 * is: every repository needs it.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      imports: [DatabaseServerModule],
      inject: [DatabaseServer, ConnectionPool],
      useFactory: async (server: DatabaseServer, pool: ConnectionPool) => ({
        ...typeOrmOptions({ ...(await server.poolSettings()), driver: pool.driver }),
        // Start-up already waited for the database (startup/open-database.ts): no retries here.
        toRetry: () => false,
      }),
      dataSourceFactory: (options) => new DataSource(options!).initialize(),
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
