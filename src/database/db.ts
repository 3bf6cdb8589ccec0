import { InjectTransactionHost, TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';

/**
 * How repositories and services reach PostgreSQL: `db.tx` is the current transaction's entity
 * manager (the pool outside one); `db.withTransaction(fn)` runs `fn` in one transaction, joining
 * the current one if any.
 */
export type Db = TransactionHost<TransactionalAdapterTypeOrm>;

/** Injects the {@link Db}. */
export const InjectDb = (): ParameterDecorator => InjectTransactionHost();
