/**
 * The columns of a row's {@link ResourceVersion}, as text: `created` (µs since 1970) and
 * `version`. `table` qualifies them in a query that joins.
 *
 * @see ../conditional/resource-version.ts
 */
export const versionColumns = (table?: string): string => {
  const of = table ? `${table}.` : '';
  return `(extract(epoch FROM ${of}created_at) * 1000000)::bigint::text AS created,
    ${of}version::text AS version`;
};
