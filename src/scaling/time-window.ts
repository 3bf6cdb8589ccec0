import { FieldViolation, InvalidRequestError } from '../common/domain-error';

export interface TimeWindowQuery {
  from?: unknown;
  to?: unknown;
}

function instant(value: unknown, field: string, violations: FieldViolation[]): number {
  if (value === undefined) {
    violations.push({ field, message: 'is required' });
  } else if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    violations.push({ field, message: 'must be a non-negative integer (ms since 1970)' });
  } else if (!Number.isSafeInteger(Number(value))) {
    violations.push({ field, message: 'must be at most 2^53-1' });
  } else {
    return Number(value);
  }
  return 0;
}

/** A closed window [from, to], ms since 1970. */
export interface TimeWindow {
  from: number;
  to: number;
}

/**
 * An optional moment of a query, such as the `at` of the segments (docs/extensions.md section 7):
 * absent, or an integer from 0 to 2^53-1 (ms since 1970); anything else is a 400.
 */
export function toInstant(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  const violations: FieldViolation[] = [];
  const at = instant(value, field, violations);
  if (violations.length > 0) throw new InvalidRequestError(violations);
  return at;
}

/** `from` and `to` of a scaling-events query: integers >= 0 with from <= to. */
export function toTimeWindow(query: TimeWindowQuery): TimeWindow {
  const violations: FieldViolation[] = [];
  const from = instant(query.from, 'from', violations);
  const to = instant(query.to, 'to', violations);
  if (violations.length === 0 && from > to) {
    violations.push({ field: 'to', message: 'must not be before from' });
  }
  if (violations.length > 0) throw new InvalidRequestError(violations);
  return { from, to };
}
