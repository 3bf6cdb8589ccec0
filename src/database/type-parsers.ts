import { type CustomTypesConfig, types as pgTypes } from 'pg';

type TypeId = Parameters<CustomTypesConfig['getTypeParser']>[0];

/**
 * How this service reads the two types a long list reads most of (docs/ARCHITECTURE.md, "The
 * data layer"): the same values `pg` answers, with a fraction of its garbage.
 */

/** Their type ids (`pg_type.oid`); `pg`'s typings list no array types. */
const INT8 = 20 as TypeId;
const TEXT_ARRAY = 1009 as TypeId;

/** `{` */
const OPEN_BRACE = 0x7b;

const pgTextArray = pgTypes.getTypeParser(TEXT_ARRAY, 'text') as (
  text: string,
) => (string | null)[];

/**
 * A `text[]` as PostgreSQL writes it, read as `pg` reads it, with far less garbage in the usual
 * case. PostgreSQL quotes every element that is empty, is `NULL`, or holds a brace, comma,
 * quote, backslash or white space, and writes a null element as a bare `NULL`. So a one-dimensional
 * array (`{` not followed by `{`; no `[1:2]=` bounds) without a quote is its elements as they
 * are, comma separated: a split. Anything else goes to `pg`'s own parser, which makes an object
 * per character (BENCHMARKS.md, "The data layer's cost").
 */
export function parseTextArray(text: string): (string | null)[] {
  if (
    text.charCodeAt(0) !== OPEN_BRACE ||
    text.charCodeAt(1) === OPEN_BRACE ||
    text.includes('"')
  ) {
    return pgTextArray(text);
  }
  if (text.length === 2) return [];
  const items: (string | null)[] = text.slice(1, -1).split(',');
  for (let i = 0; i < items.length; i++) if (items[i] === 'NULL') items[i] = null;
  return items;
}

/**
 * A `bigint` as its text, as `pg` answers it (every digit kept; the entities' transformers
 * make numbers of the counts). `pg`'s own parser answers the same text, after testing it
 * against a regular expression created anew for every value.
 */
const parseInt8 = (text: string): string => text;

/**
 * The `types` of the pool's connections (`pg`'s documented client option): `pg`'s parsers,
 * but for the two above.
 */
export const typeParsers: CustomTypesConfig = {
  getTypeParser(oid, format) {
    if (format !== 'binary') {
      if (oid === TEXT_ARRAY) return parseTextArray;
      if (oid === INT8) return parseInt8;
    }
    return pgTypes.getTypeParser(oid, format) as unknown;
  },
};
