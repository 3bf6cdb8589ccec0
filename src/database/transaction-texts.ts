/**
 * How TypeORM's query runner begins a transaction (`START TRANSACTION` or `BEGIN`, perhaps with
 * an isolation level): recognized by the pool's clients that act at a transaction's edges.
 */
export const BEGINS = /^(START TRANSACTION|BEGIN)\b/i;

/**
 * A BEGIN alone, as TypeORM's query runner sends it (isolation levels follow as a statement of
 * their own): one statement, which a pipeline of the extended protocol can carry.
 */
export const ONE_BEGIN = /^(START TRANSACTION|BEGIN)$/i;
