import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** A batch or a page to read: after which position (none: from the start), and how many rows. */
export interface Keyset<Position> {
  after?: Position;
  /** The rows to fetch (a page's `limit + 1`: the extra row only tells whether more follow). */
  take: number;
}

/** The named parameter of a keyset read's position. */
export const AFTER = 'after';

/**
 * Reads `query` by keyset on `column` (an `alias.property` path): after the position, in its
 * order, at most `take` rows (all without it). One index range scan however deep the page: the
 * last page costs what the first does.
 */
export function byKeyset<T extends ObjectLiteral, Position>(
  query: SelectQueryBuilder<T>,
  column: string,
  keyset: Partial<Keyset<Position>> | undefined,
): SelectQueryBuilder<T> {
  if (keyset?.after !== undefined)
    query.andWhere(`${column} > :${AFTER}`, { [AFTER]: keyset.after });
  return query.orderBy(column).limit(keyset?.take);
}
