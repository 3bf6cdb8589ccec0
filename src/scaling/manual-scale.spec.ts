import fc from 'fast-check';
import { joinedBlocks, KeyRange, overlaps } from './key-ranges';
import { overlappingRanges, planScale, ScaleStart, Segment } from './manual-scale';
import {
  BelowMinSegmentsError,
  RangesDoNotMatchError,
  SegmentNotActiveError,
} from './scale.errors';

const range = (keyStart: number, keyEnd: number): KeyRange => ({ keyStart, keyEnd });

/** Segments numbered from `first` over consecutive bounds, opened at `startTime`. */
const segmentsOver = (bounds: number[], first = 0, startTime = 1000): Segment[] =>
  bounds.slice(1).map((keyEnd, i) => ({
    number: first + i,
    startTime,
    keyStart: bounds[i],
    keyEnd,
  }));

const start = (active: Segment[], minSegments = 1, nextNumber = active.length): ScaleStart => ({
  epoch: 4,
  active,
  nextNumber,
  minSegments,
});

/** Any double strictly inside (0, 1), subnormals and neighbours of 0.5 included. */
const inner = fc.double({ min: 0, max: 1, minExcluded: true, maxExcluded: true, noNaN: true });

/** The bounds of a tiling of [0, 1): 0, any distinct inner points in order, 1. */
const tilingBounds = fc
  .uniqueArray(inner, { maxLength: 24 })
  .map((points) => [0, ...points.sort((a, b) => a - b), 1]);

/** Bounds that cut a block into parts: its own ends and distinct points strictly inside it. */
const cutsOf = (block: KeyRange) =>
  fc
    .uniqueArray(inner, { maxLength: 4 })
    .map((us) => us.map((u) => block.keyStart + u * (block.keyEnd - block.keyStart)))
    .map((points) => [...new Set(points.filter((p) => p > block.keyStart && p < block.keyEnd))])
    .map((points) => [block.keyStart, ...points.sort((a, b) => a - b), block.keyEnd]);

/**
 * A random scale of a random tiling: the segments, a non-empty subset to seal (neighbours or
 * not), and new ranges cutting each sealed block at random inner points, in a random order.
 */
const randomScale = tilingBounds
  .chain((bounds) => {
    const segments = segmentsOver(bounds, 7);
    const all = { minLength: segments.length };
    return fc.tuple(
      fc.shuffledSubarray(segments, all),
      fc.shuffledSubarray(segments, { minLength: 1 }),
    );
  })
  .chain(([active, sealed]) =>
    fc
      .tuple(...joinedBlocks(sealed).map(cutsOf))
      .map((cuts) => cuts.flatMap((b) => b.slice(1).map((end, i) => range(b[i], end))))
      .chain((ranges) => fc.shuffledSubarray(ranges, { minLength: ranges.length }))
      .map((newRanges) => ({ active, sealedSegments: sealed.map((s) => s.number), newRanges })),
  );

/** The definition, by brute force: ranges of one list that overlap more than one of another. */
const overlappingMoreThanOne = (of: KeyRange[], against: KeyRange[]): number =>
  of.filter((a) => against.filter((b) => overlaps(a, b)).length > 1).length;

/** The next double above `x` (for x >= 0). */
const nextUp = (x: number): number => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
};

describe('planScale', () => {
  it('splits segment 2 of 4 and renumbers on from the highest number used', () => {
    const active = segmentsOver([0, 0.25, 0.5, 0.75, 1]);
    const outcome = planScale(
      start(active, 1, 9),
      { sealedSegments: [2], newRanges: [range(0.625, 0.75), range(0.5, 0.625)] },
      2000,
    );
    expect(outcome).toEqual({
      epoch: 5,
      timestamp: 2000,
      segments: [
        active[0],
        active[1],
        { number: 10, startTime: 2000, keyStart: 0.5, keyEnd: 0.625 },
        { number: 9, startTime: 2000, keyStart: 0.625, keyEnd: 0.75 },
        active[3],
      ],
      sealedSegments: [2],
      newSegments: [
        { number: 9, startTime: 2000, keyStart: 0.625, keyEnd: 0.75 },
        { number: 10, startTime: 2000, keyStart: 0.5, keyEnd: 0.625 },
      ],
      splits: 1,
      merges: 0,
    });
  });

  it('merges neighbours and seals segments that are not neighbours, block by block', () => {
    const active = segmentsOver([0, 0.25, 0.4, 0.75, 1]);
    const merged = planScale(
      start(active),
      { sealedSegments: [2, 1], newRanges: [range(0.25, 0.75)] },
      2000,
    );
    expect([merged.sealedSegments, merged.splits, merged.merges]).toEqual([[1, 2], 0, 1]);
    const apart = planScale(
      start(active),
      { sealedSegments: [0, 3], newRanges: [range(0.75, 1), range(0, 0.1), range(0.1, 0.25)] },
      2000,
    );
    expect(apart.segments.map((s) => s.number)).toEqual([5, 6, 1, 2, 4]);
    expect([apart.splits, apart.merges]).toEqual([1, 0]);
  });

  it('compares bounds exactly: 0.1 + 0.2 is not 0.3', () => {
    const active = segmentsOver([0, 0.3, 1]);
    const sealed = { sealedSegments: [0] };
    expect(() =>
      planScale(start(active), { ...sealed, newRanges: [range(0, 0.1), range(0.1, 0.1 + 0.2)] }, 1),
    ).toThrow(RangesDoNotMatchError);
    expect(
      planScale(start(active), { ...sealed, newRanges: [range(0, 0.1), range(0.1, 0.3)] }, 1)
        .newSegments,
    ).toHaveLength(2);
  });

  it('refuses new ranges that leave a gap, reach outside the sealed blocks or join two of them', () => {
    const active = segmentsOver([0, 0.25, 0.5, 0.75, 1]);
    const refused = (sealedSegments: number[], newRanges: KeyRange[]) => () =>
      planScale(start(active), { sealedSegments, newRanges }, 1);
    expect(refused([1], [range(0.25, 0.3), range(0.31, 0.5)])).toThrow(RangesDoNotMatchError);
    expect(refused([1], [range(0.2, 0.5)])).toThrow(RangesDoNotMatchError);
    expect(refused([1, 3], [range(0.25, 1)])).toThrow(RangesDoNotMatchError);
    expect(refused([1, 3], [range(0.25, 0.5)])).toThrow(
      'the sealed segments cover [0.25, 0.5) [0.75, 1), the new ranges [0.25, 0.5)',
    );
  });

  it('names every segment that is not active, before looking at the ranges', () => {
    const active = segmentsOver([0, 0.5, 1]);
    const attempt = () =>
      planScale(start(active), { sealedSegments: [9, 1, 3], newRanges: [range(0, 1)] }, 1);
    expect(attempt).toThrow(SegmentNotActiveError);
    expect(attempt).toThrow('Segments 9, 3 are not active in the current epoch (4)');
  });

  it("refuses to leave fewer segments than the policy's minimum, after checking the ranges", () => {
    const active = segmentsOver([0, 0.5, 1]);
    const merge = { sealedSegments: [0, 1], newRanges: [range(0, 1)] };
    expect(() => planScale(start(active, 2), merge, 1)).toThrow(
      new BelowMinSegmentsError(1, 2).message,
    );
    expect(() => planScale(start(active, 2), { ...merge, newRanges: [range(0, 0.9)] }, 1)).toThrow(
      RangesDoNotMatchError,
    );
    expect(planScale(start(active, 1), merge, 1).segments).toHaveLength(1);
  });

  describe('on random tilings scaled at random', () => {
    it('leaves a tiling of [0, 1) made only of the bounds it was given', () => {
      fc.assert(
        fc.property(randomScale, ({ active, ...request }) => {
          const { segments } = planScale(start(active), request, 5000);
          const given = new Set(
            [...active, ...request.newRanges].flatMap((r) => [r.keyStart, r.keyEnd]),
          );
          expect(segments[0].keyStart).toBe(0);
          expect(segments.at(-1)!.keyEnd).toBe(1);
          segments.slice(1).forEach((s, i) => expect(s.keyStart).toBe(segments[i].keyEnd));
          expect(
            segments.flatMap((s) => [s.keyStart, s.keyEnd]).filter((b) => !given.has(b)),
          ).toEqual([]);
        }),
      );
    });

    it('keeps survivors as they were and numbers new segments in request order', () => {
      fc.assert(
        fc.property(randomScale, ({ active, ...request }) => {
          const outcome = planScale(start(active, 1, 100), request, 5000);
          const sealed = new Set(request.sealedSegments);
          const survivors = active.filter((s) => !sealed.has(s.number));
          expect(outcome.segments.filter((s) => s.number < 100)).toEqual(
            survivors.sort((a, b) => a.keyStart - b.keyStart),
          );
          expect(outcome.newSegments).toEqual(
            request.newRanges.map((r, i) => ({ number: 100 + i, startTime: 5000, ...r })),
          );
          expect(outcome.sealedSegments).toEqual([...sealed].sort((a, b) => a - b));
        }),
      );
    });

    it('counts splits and merges as their definitions do', () => {
      fc.assert(
        fc.property(randomScale, ({ active, ...request }) => {
          const outcome = planScale(start(active), request, 5000);
          expect({ splits: outcome.splits, merges: outcome.merges }).toEqual({
            splits: overlappingMoreThanOne(active, outcome.segments),
            merges: overlappingMoreThanOne(outcome.segments, active),
          });
        }),
      );
    });

    it('refuses the same scale with any one bound moved to the next number', () => {
      fc.assert(
        fc.property(randomScale, fc.nat(), fc.boolean(), ({ active, ...request }, pick, end) => {
          const i = pick % request.newRanges.length;
          const moved = request.newRanges.map((r, j) => {
            if (j !== i) return r;
            return end ? range(r.keyStart, nextUp(r.keyEnd)) : range(nextUp(r.keyStart), r.keyEnd);
          });
          fc.pre(moved[i].keyStart < moved[i].keyEnd && moved[i].keyEnd <= 1);
          expect(() => planScale(start(active), { ...request, newRanges: moved }, 1)).toThrow(
            RangesDoNotMatchError,
          );
        }),
      );
    });

    it('gives the same outcome whatever order the active segments are read in', () => {
      fc.assert(
        fc.property(randomScale, ({ active, ...request }) => {
          const sorted = [...active].sort((a, b) => a.number - b.number);
          expect(planScale(start(active), request, 7)).toEqual(
            planScale(start(sorted), request, 7),
          );
        }),
      );
    });
  });
});

describe('overlappingRanges', () => {
  it('names both ranges of each overlap, and ignores invalid ones', () => {
    const found = overlappingRanges([
      range(0, 0.5),
      range(0.5, 1),
      range(0.4, 0.6),
      { keyStart: 'a', keyEnd: 1 },
      range(0.9, 0.8),
    ]);
    expect([...found.entries()].sort(([a, b], [c, d]) => a - c || b - d)).toEqual([
      [0, 2],
      [1, 2],
      [2, 0],
    ]);
  });

  it('finds exactly the ranges that overlap another, as the definition does', () => {
    const point = fc.integer({ min: 0, max: 20 }).map((n) => n / 20);
    const ranges = fc.array(
      fc.tuple(point, point).map(([a, b]) => range(Math.min(a, b), Math.max(a, b))),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(ranges, (list) => {
        const valid = (r: KeyRange) => r.keyStart < r.keyEnd;
        const expected = list.flatMap((r, i) =>
          valid(r) && list.some((o, j) => j !== i && valid(o) && overlaps(r, o)) ? [i] : [],
        );
        const found = overlappingRanges(list);
        expect([...found.keys()].sort((a, b) => a - b)).toEqual(expected);
        for (const [i, j] of found) expect(overlaps(list[i], list[j])).toBe(true);
      }),
    );
  });
});
