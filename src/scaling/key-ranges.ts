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

/** Index of the first range (sorted by start) whose start is >= `key`. */
function firstStartingAtOrAfter(sorted: readonly KeyRange[], key: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid].keyStart < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** How many ranges of a tiling (disjoint ranges sorted by start) overlap `range`. */
function overlapCount(range: KeyRange, tiling: readonly KeyRange[]): number {
  // Disjoint and sorted by start, the tiling is sorted by end as well: the ranges that overlap
  // are those that start before `range` ends, less those that end before it starts.
  const startBeforeEnd = firstStartingAtOrAfter(tiling, range.keyEnd);
  let endAfterStart = firstStartingAtOrAfter(tiling, range.keyStart);
  if (endAfterStart > 0 && tiling[endAfterStart - 1].keyEnd > range.keyStart) endAfterStart--;
  return Math.max(0, startBeforeEnd - endAfterStart);
}

/** A copy sorted by start. */
export const byStart = <R extends KeyRange>(ranges: readonly R[]): R[] =>
  [...ranges].sort((a, b) => a.keyStart - b.keyStart);

/**
 * The blocks of key space that disjoint ranges cover: sorted by start, and neighbours whose end
 * is the very same number as the next one's start joined into one. No tolerance: 0.3 and
 * 0.1 + 0.2 are two numbers, and leave a gap between them.
 */
export function joinedBlocks(ranges: readonly KeyRange[]): KeyRange[] {
  const blocks: KeyRange[] = [];
  for (const { keyStart, keyEnd } of byStart(ranges)) {
    const last = blocks.at(-1);
    if (last && last.keyEnd === keyStart) last.keyEnd = keyEnd;
    else blocks.push({ keyStart, keyEnd });
  }
  return blocks;
}

/** Whether two sets of disjoint ranges cover exactly the same keys, bound for bound. */
export function coverSameKeys(a: readonly KeyRange[], b: readonly KeyRange[]): boolean {
  const [blocksOfA, blocksOfB] = [joinedBlocks(a), joinedBlocks(b)];
  return (
    blocksOfA.length === blocksOfB.length &&
    blocksOfA.every(
      (block, i) =>
        block.keyStart === blocksOfB[i].keyStart && block.keyEnd === blocksOfB[i].keyEnd,
    )
  );
}

/**
 * Between two consecutive epochs (each a set of disjoint ranges): `splits`, the segments of the
 * earlier that overlap more than one segment of the later; `merges`, the segments of the later
 * that overlap more than one of the earlier. O((a + b) log(a + b)).
 */
export function splitsAndMerges(
  previous: readonly KeyRange[],
  next: readonly KeyRange[],
): { splits: number; merges: number } {
  const [sortedPrevious, sortedNext] = [byStart(previous), byStart(next)];
  return {
    splits: previous.filter((range) => overlapCount(range, sortedNext) > 1).length,
    merges: next.filter((range) => overlapCount(range, sortedPrevious) > 1).length,
  };
}
