import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { leadsThroughPooler } from './connection-pooler';
import { EmbeddedPostgres } from './embedded-postgres';
import type { ConnectionSettings } from './typeorm-options';

/**
 * The database the service was started on: DATABASE_URL, which start-up pointed at the
 * embedded server when the service runs one (handed over with `adopt`).
 */
@Injectable()
export class DatabaseServer implements OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseServer.name);
  private embedded?: EmbeddedPostgres;
  private pooled = false;

  constructor(
    private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  url(): string {
    if (!this.config.DATABASE_URL) throw new Error('start-up opens the database first');
    return this.config.DATABASE_URL;
  }

  /**
   * The settings of the application's pool. Straight to PostgreSQL, each connection's session
   * carries the time limits. Through a transaction pooler (PgBouncer and the like) sessions are
   * shared and session settings refused or ignored, so each transaction sets its own, and a
   * statement outside a transaction runs in one of its own (`transaction-limited-client.ts`).
   */
  async poolSettings(): Promise<ConnectionSettings> {
    const pooled = await leadsThroughPooler(this.url(), this.config.DB_CONNECT_TIMEOUT_MS);
    this.pooled = pooled;
    if (pooled) {
      this.logger.log(
        'DATABASE_URL leads through a connection pooler: every transaction sets its own time limits',
      );
    }
    return {
      url: this.url(),
      poolSize: this.config.DB_POOL_SIZE,
      statementTimeoutMs: this.config.DB_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: this.config.DB_CONNECT_TIMEOUT_MS,
      timeoutsIn: pooled ? 'transaction' : 'session',
    };
  }

  /**
   * Whether DATABASE_URL leads through a connection pooler (known once `poolSettings` has run):
   * then no session of its own can be kept (no LISTEN).
   */
  throughPooler(): boolean {
    return this.pooled;
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
