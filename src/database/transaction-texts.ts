/**
 * How TypeORM's query runner begins a transaction (`START TRANSACTION` or `BEGIN`, perhaps with
 * an isolation level): recognized by the pool's clients that act at a transaction's edges.
 */
export const BEGINS = /^(START TRANSACTION|BEGIN)\b/i;
