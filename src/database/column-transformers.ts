import type { ValueTransformer } from 'typeorm';

/**
 * How the entities read PostgreSQL's `bigint` and time columns: the one place that says it
 * (docs/ARCHITECTURE.md, "The data layer").
 */

/**
 * A `bigint` that holds a count of milliseconds, bytes or minutes: well inside a double's exact
 * range, so a number. `pg` answers a `bigint` as text to keep every digit.
 */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/**
 * The SQL of a row's creation instant in microseconds since 1970, as text: the first half of
 * its entity tag (a resource's version, see `conditional/resource-version.ts`). `created_at` read
 * as a `Date` would keep only milliseconds.
 */
export const createdMicros = (alias: string): string =>
  `(extract(epoch FROM ${alias}.created_at) * 1000000)::bigint::text`;
