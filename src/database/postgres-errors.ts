import { QueryFailedError } from 'typeorm';

/** SQLSTATE codes this service reacts to. */
export const PgCode = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  /** PostgreSQL 18 reports an ON DELETE RESTRICT violation with its own code. */
  restrictViolation: '23001',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  queryCanceled: '57014',
  lockNotAvailable: '55P03',
  /** Raised by the commit of a change that passed a scope policy's count limit (migration PolicyCountsAtCommit). */
  policyLimitPassed: 'TB422',
} as const;

/**
 * A string field of the driver's error behind a failed query (TypeORM wraps it, the
 * connection's own errors come bare), if it carries one.
 */
function driverField(error: unknown, field: 'code' | 'detail'): string | undefined {
  const source = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  const value = (source as Partial<Record<typeof field, unknown>> | null)?.[field];
  return typeof value === 'string' ? value : undefined;
}

/** The SQLSTATE of a failed query, if the error carries one. */
export const sqlState = (error: unknown): string | undefined => driverField(error, 'code');

/** The DETAIL of a failed query, if the error carries one. */
export const sqlDetail = (error: unknown): string | undefined => driverField(error, 'detail');

/** A row still referenced, or a reference to a missing row, on any PostgreSQL version. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = sqlState(error);
  return code === PgCode.foreignKeyViolation || code === PgCode.restrictViolation;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
]);

/**
 * Whether an error means "the database is unreachable, overloaded or too slow" (retry later)
 * rather than a bug: connection failures, timeouts, shutdowns and too many connections.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = sqlState(error);
  if (code !== undefined) {
    if (NETWORK_CODES.has(code)) return true;
    // 08: connection exception, 53: insufficient resources, 57P0x: operator intervention.
    if (/^(08|53)/.test(code) || /^57P0/.test(code) || code === PgCode.queryCanceled) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /connection terminated|timeout exceeded when trying to connect|connection timeout|query read timeout|Connection terminated unexpectedly|the database system is (starting up|shutting down)/i.test(
    message,
  );
}
