/** A batch or a page to read: after which position (none: from the start), and how many rows. */
export interface Keyset<Position> {
  after?: Position;
  /** The rows to fetch (a page's `limit + 1`: the extra row only tells whether more follow). */
  take: number;
}

/**
 * The keyset part of a query over rows ordered by `column`: the condition that starts after the
 * position (`TRUE` from the start) and the order and limit, with their values pushed onto
 * `params`. One index range scan however deep the page: the last page costs what the first does.
 */
export function keysetClauses<Position>(
  params: unknown[],
  keyset: Keyset<Position> | undefined,
  column = 'name',
): { after: string; orderAndLimit: string } {
  const after = keyset?.after === undefined ? 'TRUE' : `${column} > $${params.push(keyset.after)}`;
  return {
    after,
    orderAndLimit: `ORDER BY ${column} LIMIT $${params.push(keyset?.take ?? null)}`,
  };
}
