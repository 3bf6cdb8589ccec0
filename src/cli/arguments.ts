import { InvalidArgumentError } from 'commander';

/** A whole number given on the command line; anything else is a usage error. */
export function integer(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('is too large');
  return n;
}

/** A whole number from 1 (`--timeout`: 0 or less would never, or at once, give up). */
export function positiveInteger(value: string): number {
  const n = integer(value);
  if (n < 1) throw new InvalidArgumentError('must be a whole number from 1');
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

/** Segment numbers, comma-separated and repeatable (`--seal 2,3 --seal 5`). */
export function segmentNumbers(value: string, previous: number[] = []): number[] {
  const numbers = value.split(',').map((part) => {
    if (!/^\d+$/.test(part.trim())) {
      throw new InvalidArgumentError('must be segment numbers separated by commas, like 2,3');
    }
    return Number(part.trim());
  });
  return [...previous, ...numbers];
}

/** A decimal number as a person writes a bound: `0.25`, `.25`, `1`, `2.5e-1`. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A key range `START:END` (`0.25:0.4`), repeatable. Its numbers are read as JSON reads them, so
 * the service compares exactly what was typed; whether they make a range is the service's to say.
 * Only decimals: `Number` would also read `0x1` (1) or `0b1`, which are no bounds anyone means.
 */
export function keyRange(
  value: string,
  previous: { keyStart: number; keyEnd: number }[] = [],
): { keyStart: number; keyEnd: number }[] {
  const bounds = value.split(':');
  const numbers = bounds.map((bound) => (DECIMAL.test(bound.trim()) ? Number(bound) : NaN));
  if (numbers.length !== 2 || !numbers.every(Number.isFinite)) {
    throw new InvalidArgumentError('must be START:END, two numbers, like 0.25:0.4');
  }
  return [...previous, { keyStart: numbers[0], keyEnd: numbers[1] }];
}
