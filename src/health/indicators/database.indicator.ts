import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../../database/postgres-errors';
import { AppConfig } from '../../config/app-config';

/** Health reports never carry addresses or SQL: only what kind of failure it was. */
function failure(error: unknown): Error {
  return new Error(isDatabaseUnavailable(error) ? 'database unreachable' : 'database query failed');
}

/**
 * The checks that need the database, each bounded by HEALTH_TIMEOUT_MS. They run when the
 * health tree is computed, once per HEALTH_CACHE_MS for every probe (`health.service.ts`).
 */
@Injectable()
export class DatabaseIndicator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly indicators: HealthIndicatorService,
    private readonly config: AppConfig,
  ) {}

  /** A round trip through TypeORM's pool. */
  ping() {
    return this.indicators
      .check('database')
      .attempt(async () => {
        // A round trip, not a read of any table: no entity has anything to say here.
        await this.dataSource.query('SELECT 1').catch((error: unknown) => {
          throw failure(error);
        });
      })
      .withTimeout(this.config.HEALTH_TIMEOUT_MS);
  }

  /** Every migration this build knows is applied to the database. */
  migrations() {
    return this.indicators
      .check('migrations')
      .attempt(async () => {
        // The migrations table is TypeORM's own, with no entity of ours.
        const rows = await this.dataSource
          .query<{ name: string }[]>(
            `SELECT name FROM "${this.dataSource.options.migrationsTableName}" ORDER BY id`,
          )
          .catch((error: unknown) => {
            throw failure(error);
          });
        const applied = new Set(rows.map((row) => row.name));
        const known = this.dataSource.migrations.map((m) => m.name ?? m.constructor.name);
        const pending = known.filter((name) => !applied.has(name));
        if (pending.length > 0) throw new Error(`pending migrations: ${pending.join(', ')}`);
        return { applied: applied.size, latest: rows.at(-1)?.name ?? 'none' };
      })
      .withTimeout(this.config.HEALTH_TIMEOUT_MS);
  }
}
