import * as pg from 'pg';
import type { Pool, PoolConfig } from 'pg';
import type { DataSource } from 'typeorm';

/** The pool that each `pg` module of a {@link ConnectionPool} opened, by module. */
const opened = new WeakMap<object, Pool>();

/**
 * The `pg` module as TypeORM is given it (its documented `driver` option), with a pool that
 * makes itself known: what the metrics read (`totalCount`, `idleCount`, `waitingCount`, the
 * pool's public counts) and what a statement outside a transaction is sent through
 * (`on-connection.ts`), without reaching into TypeORM's driver.
 */
export class ConnectionPool {
  readonly driver: typeof pg;

  constructor() {
    const module = {
      ...pg,
      Pool: class extends pg.Pool {
        constructor(config?: PoolConfig) {
          super(config);
          opened.set(module, this);
        }
      },
    };
    this.driver = module;
  }

  /** The pool TypeORM opened; undefined before it did. */
  get pool(): Pool | undefined {
    return opened.get(this.driver);
  }
}

/** The pool of a data source given a {@link ConnectionPool}'s module; undefined for any other. */
export function poolOf(dataSource: DataSource): Pool | undefined {
  const { driver } = dataSource.options as { driver?: unknown };
  return typeof driver === 'object' && driver !== null ? opened.get(driver) : undefined;
}
