import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { EmbeddedPostgres } from './embedded-postgres';

/** Where the database is: DATABASE_URL, or a PostgreSQL the service runs itself. */
@Injectable()
export class DatabaseServer implements OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseServer.name);
  private embedded?: EmbeddedPostgres;

  constructor(
    private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  async url(): Promise<string> {
    if (this.config.DATABASE_URL) return this.config.DATABASE_URL;
    const logger = new Logger(EmbeddedPostgres.name);
    this.embedded = new EmbeddedPostgres(this.config.DATA_DIR, {
      log: (message) => logger.debug(message),
      error: (message) => logger.warn(message),
    });
    const url = await this.embedded.start();
    this.logger.log(`embedded PostgreSQL is running with its data in ${this.config.DATA_DIR}`);
    return url;
  }

  /** The embedded server stops last: after the pool that talks to it is closed. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.embedded) return;
    const dataSource = this.moduleRef.get(DataSource, { strict: false });
    if (dataSource.isInitialized) await dataSource.destroy();
    await this.embedded.stop();
    this.logger.log('embedded PostgreSQL stopped');
  }
}
