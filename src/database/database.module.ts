import { Module } from '@nestjs/common';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClsModule } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { DatabaseServer } from './database-server';
import { PgTransactionalAdapter } from './pg-transactional-adapter';
import { typeOrmOptions } from './typeorm-options';

@Module({ providers: [DatabaseServer], exports: [DatabaseServer] })
export class DatabaseServerModule {}

/**
 * The connection pool (start-up has applied pending migrations: startup/open-database.ts), and
 * the transaction host:
 * a transaction opened by a service reaches every repository it calls (their `db.tx`) through
 * async-local storage, without a parameter threaded through each signature. Global, as the
 * pool itself is: every repository needs it.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      imports: [DatabaseServerModule],
      inject: [DatabaseServer],
      useFactory: async (server: DatabaseServer) => ({
        ...typeOrmOptions(await server.poolSettings()),
        // Start-up already waited for the database (startup/open-database.ts): no retries here.
        toRetry: () => false,
      }),
      dataSourceFactory: (options) => new DataSource(options!).initialize(),
    }),
    ClsModule.forRoot({
      global: true,
      plugins: [
        new ClsPluginTransactional({
          adapter: new PgTransactionalAdapter(),
          imports: [DatabaseServerModule],
        }),
      ],
    }),
  ],
})
export class DatabaseModule {}
