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

const DURATION_UNITS_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * A moment given as how long ago (`90s`, `30m`, `2h`, `1d`) or as ms since 1970 (a bare number),
 * read as ms since 1970 against `now`.
 */
export function momentAgo(value: string, now = Date.now()): number {
  if (/^\d+$/.test(value)) return integer(value);
  const match = /^(\d+)([smhd])$/.exec(value);
  if (!match) {
    throw new InvalidArgumentError(
      'must be a duration ago like 90s, 30m, 2h, 1d, or ms since 1970',
    );
  }
  return now - Number(match[1]) * DURATION_UNITS_MS[match[2]];
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

/** The rates of a report of load (`620,300,150,80`): over two, five, ten and twenty minutes. */
export interface Rates {
  twoMinuteRate: number;
  fiveMinuteRate: number;
  tenMinuteRate: number;
  twentyMinuteRate: number;
}

/**
 * Four decimals separated by commas, read as JSON reads them; whether a rate may be negative is
 * the service's to say.
 */
export function rates(value: string): Rates {
  const numbers = value.split(',').map((part) => (DECIMAL.test(part.trim()) ? Number(part) : NaN));
  if (numbers.length !== 4 || !numbers.every(Number.isFinite)) {
    throw new InvalidArgumentError(
      'must be the two-, five-, ten- and twenty-minute rates, like 620,300,150,80',
    );
  }
  const [twoMinuteRate, fiveMinuteRate, tenMinuteRate, twentyMinuteRate] = numbers;
  return { twoMinuteRate, fiveMinuteRate, tenMinuteRate, twentyMinuteRate };
}

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
