/**
 * Writes of several repositories sent as one statement: each repository gives its part as named
 * data-modifying WITH queries, and {@link oneStatement} joins them. PostgreSQL runs every
 * data-modifying WITH query exactly once, to completion, whether or not anything reads it, so
 * the statement's own SELECT reads nothing. Used where a round trip of its own would cost more
 * than the write itself: what every change writes last, before its COMMIT (BENCHMARKS.md, "The
 * data layer's cost").
 */
export interface WithQueries {
  /**
   * Each query by its name, unique across the parts joined; placeholders count from `$1`. A
   * part's queries are constants: the same names always stand for the same SQL.
   */
  queries: Readonly<Record<string, string>>;
  /** The values of the placeholders, in order: as many for the same queries. */
  values: unknown[];
}

/** The statements joined so far, by the names of their queries. */
const joined = new Map<string, string>();

/** The parts as one statement, their placeholders numbered on from one part to the next. */
export function oneStatement(parts: readonly WithQueries[]): { sql: string; values: unknown[] } {
  const key = parts.map((part) => Object.keys(part.queries).join()).join(';');
  let sql = joined.get(key);
  if (sql === undefined) {
    sql = join(parts);
    joined.set(key, sql);
  }
  return { sql, values: parts.flatMap((part) => part.values) };
}

function join(parts: readonly WithQueries[]): string {
  let offset = 0;
  const queries: string[] = [];
  for (const part of parts) {
    const shift = offset;
    for (const [name, sql] of Object.entries(part.queries)) {
      const shifted = sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
      queries.push(`${name} AS (${shifted})`);
    }
    offset += part.values.length;
  }
  return `WITH ${queries.join(',\n')} SELECT`;
}
