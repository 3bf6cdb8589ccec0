import fc from 'fast-check';
import { equalKeyRanges, KeyRange, overlaps, splitsAndMerges } from './key-ranges';

const counts = fc.integer({ min: 1, max: 500 });

describe('equalKeyRanges', () => {
  it('covers [0, 1) with exact ends', () => {
    expect(equalKeyRanges(1)).toEqual([{ keyStart: 0, keyEnd: 1 }]);
    expect(equalKeyRanges(4)).toEqual([
      { keyStart: 0, keyEnd: 0.25 },
      { keyStart: 0.25, keyEnd: 0.5 },
      { keyStart: 0.5, keyEnd: 0.75 },
      { keyStart: 0.75, keyEnd: 1 },
    ]);
  });

  it('tiles [0, 1) without gaps or overlaps, for any count', () => {
    fc.assert(
      fc.property(counts, (n) => {
        const ranges = equalKeyRanges(n);
        expect(ranges).toHaveLength(n);
        expect(ranges[0].keyStart).toBe(0);
        expect(ranges[n - 1].keyEnd).toBe(1);
        ranges.forEach((range, i) => {
          expect(range.keyStart).toBeLessThan(range.keyEnd);
          if (i > 0) expect(range.keyStart).toBe(ranges[i - 1].keyEnd);
        });
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < Math.min(n, i + 3); j++)
            expect(overlaps(ranges[i], ranges[j])).toBe(false);
        }
      }),
    );
  });
});

describe('overlaps', () => {
  const r = (keyStart: number, keyEnd: number): KeyRange => ({ keyStart, keyEnd });
  it('is strict at the bounds', () => {
    expect(overlaps(r(0, 0.5), r(0.5, 1))).toBe(false);
    expect(overlaps(r(0, 0.6), r(0.5, 1))).toBe(true);
    expect(overlaps(r(0.2, 0.3), r(0, 1))).toBe(true);
  });
});

describe('splitsAndMerges', () => {
  it('counts 3 splits and 2 merges from 3 equal segments to 4 (docs/behaviour.md section 5)', () => {
    expect(splitsAndMerges(equalKeyRanges(3), equalKeyRanges(4))).toEqual({ splits: 3, merges: 2 });
  });

  it('counts nothing between identical epochs', () => {
    expect(splitsAndMerges(equalKeyRanges(5), equalKeyRanges(5))).toEqual({ splits: 0, merges: 0 });
  });

  it('sees 1 -> 2 as one split and 2 -> 1 as one merge', () => {
    expect(splitsAndMerges(equalKeyRanges(1), equalKeyRanges(2))).toEqual({ splits: 1, merges: 0 });
    expect(splitsAndMerges(equalKeyRanges(2), equalKeyRanges(1))).toEqual({ splits: 0, merges: 1 });
  });

  it('agrees with the definition on any two tilings, in any order', () => {
    const cuts = fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { maxLength: 30 });
    const tiling = (points: number[]): KeyRange[] => {
      const bounds = [0, ...[...points].sort((a, b) => a - b).map((p) => p / 1000), 1];
      return bounds.slice(1).map((keyEnd, i) => ({ keyStart: bounds[i], keyEnd }));
    };
    const naive = (a: KeyRange[], b: KeyRange[]) => ({
      splits: a.filter((x) => b.filter((y) => overlaps(x, y)).length > 1).length,
      merges: b.filter((y) => a.filter((x) => overlaps(x, y)).length > 1).length,
    });
    fc.assert(
      fc.property(cuts, cuts, (p, q) => {
        const [a, b] = [tiling(p), tiling(q)];
        expect(splitsAndMerges([...a].reverse(), b)).toEqual(naive(a, b));
      }),
    );
  });

  it('never counts more splits or merges than there are segments', () => {
    fc.assert(
      fc.property(counts, counts, (a, b) => {
        const { splits, merges } = splitsAndMerges(equalKeyRanges(a), equalKeyRanges(b));
        expect(splits).toBeLessThanOrEqual(a);
        expect(merges).toBeLessThanOrEqual(b);
        expect(splits).toBeGreaterThanOrEqual(0);
        expect(merges).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
