/** A part of the routing-key space [0, 1): `keyStart` inclusive, `keyEnd` exclusive. */
export interface KeyRange {
  keyStart: number;
  keyEnd: number;
}

/**
 * `n` equal ranges tiling [0, 1). Each bound is computed as i/n, so the end of one range is the
 * very same number as the start of the next, the first starts at exactly 0 and the last ends
 * at exactly 1.
 */
export function equalKeyRanges(n: number): KeyRange[] {
  return Array.from({ length: n }, (_, i) => ({ keyStart: i / n, keyEnd: (i + 1) / n }));
}

export const overlaps = (a: KeyRange, b: KeyRange): boolean =>
  a.keyStart < b.keyEnd && a.keyEnd > b.keyStart;

/**
 * Between two consecutive epochs: `splits`, the segments of the earlier that overlap more than
 * one segment of the later; `merges`, the segments of the later that overlap more than one of
 * the earlier.
 */
export function splitsAndMerges(
  previous: readonly KeyRange[],
  next: readonly KeyRange[],
): { splits: number; merges: number } {
  const overlapsMany = (range: KeyRange, others: readonly KeyRange[]) =>
    others.filter((other) => overlaps(range, other)).length > 1;
  return {
    splits: previous.filter((range) => overlapsMany(range, next)).length,
    merges: next.filter((range) => overlapsMany(range, previous)).length,
  };
}
