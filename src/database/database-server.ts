import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { EmbeddedPostgres } from './embedded-postgres';

/**
 * The database the service was started on: DATABASE_URL, which start-up pointed at the
 * embedded server when the service runs one (handed over with `adopt`).
 */
@Injectable()
export class DatabaseServer implements OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseServer.name);
  private embedded?: EmbeddedPostgres;

  constructor(
    private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  url(): string {
    if (!this.config.DATABASE_URL) throw new Error('start-up opens the database first');
    return this.config.DATABASE_URL;
  }

  /** The embedded server becomes the application's: it stops when the application does. */
  adopt(embedded: EmbeddedPostgres | undefined): void {
    this.embedded = embedded;
  }

  /** The embedded server stops last: after the pool that talks to it is closed. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.embedded) return;
    const dataSource = this.moduleRef.get(DataSource, { strict: false });
    if (dataSource.isInitialized) await dataSource.destroy();
    await this.embedded.stop();
    this.embedded = undefined;
    this.logger.log('embedded PostgreSQL stopped');
  }
}
