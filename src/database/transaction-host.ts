import { InjectTransactionHost, TransactionHost } from '@nestjs-cls/transactional';
import type { PgTransactionalAdapter } from './pg-transactional-adapter';

/**
 * How repositories and services reach PostgreSQL: `db.tx.query(sql, params)` runs a statement
 * in the current transaction (on the pool outside one) and answers its rows;
 * `db.withTransaction(fn)` runs `fn` in one transaction, joining the current one if any.
 */
export type Db = TransactionHost<PgTransactionalAdapter>;

/** Injects the {@link Db}. */
export const InjectDb = (): ParameterDecorator => InjectTransactionHost();
