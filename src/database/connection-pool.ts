import * as pg from 'pg';
import type { Pool, PoolConfig } from 'pg';

/**
 * The `pg` module as TypeORM is given it (its documented `driver` option), with a pool that
 * makes itself known: what the metrics read (`totalCount`, `idleCount`, `waitingCount`, the
 * pool's public counts) without reaching into TypeORM's driver.
 */
export class ConnectionPool {
  private current?: Pool;

  readonly driver: typeof pg;

  constructor() {
    const found = (pool: Pool) => (this.current = pool);
    this.driver = {
      ...pg,
      Pool: class extends pg.Pool {
        constructor(config?: PoolConfig) {
          super(config);
          found(this);
        }
      },
    };
  }

  /** The pool TypeORM opened; undefined before it did. */
  get pool(): Pool | undefined {
    return this.current;
  }
}
