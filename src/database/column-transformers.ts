import type { ValueTransformer } from 'typeorm';
import type { ResourceVersion } from '../conditional/resource-version';

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
 * its entity tag (a resource's version, see `conditional/resource-version.ts`). `created_at`
 * read as a `Date` would keep only milliseconds. `alias` qualifies the column in a query that
 * joins; a RETURNING clause needs none.
 */
export const createdMicros = (alias?: string): string =>
  `(extract(epoch FROM ${alias ? `${alias}.` : ''}created_at) * 1000000)::bigint::text`;

/** What an insert or update that changes a versioned row returns: its {@link ResourceVersion}. */
export const RETURNING_VERSION = `${createdMicros()} AS created, version::text AS version`;

/** The version of a versioned entity (its virtual `created` and its `version`). */
export const versionOf = (row: ResourceVersion): ResourceVersion => ({
  created: row.created,
  version: row.version,
});
