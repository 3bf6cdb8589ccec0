import { InvalidArgumentError } from 'commander';

/** A whole number given on the command line; anything else is a usage error. */
export function integer(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('is too large');
  return n;
}

/** A moment as milliseconds since 1970 or an ISO 8601 date (`2026-01-31T12:00:00Z`). */
export function instant(value: string): number {
  if (/^\d+$/.test(value)) return integer(value);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError('must be ms since 1970 or an ISO 8601 date');
  return ms;
}

/** Collects a repeatable option (`--tag a --tag b`). */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
