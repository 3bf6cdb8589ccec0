import { InjectTransactionHost, TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';

/**
 * How repositories reach PostgreSQL: `db.tx` is the `EntityManager` of the current transaction
 * (TypeORM's own, carried in async-local storage by `@nestjs-cls/transactional`), or the data
 * source's outside one; `db.withTransaction(fn)` runs `fn` in one transaction, joining the
 * current one if any. Repositories take their entities' repositories from it
 * (`db.tx.getRepository(ScopeEntity)`), so every statement joins the transaction it runs in.
 */
export type Db = TransactionHost<TransactionalAdapterTypeOrm>;

/** Injects the {@link Db}. */
export const InjectDb = (): ParameterDecorator => InjectTransactionHost();
