import fc from 'fast-check';
// The service's own rule, to show that what the console sends is what the API accepts.
import { overlappingRanges, planScale } from '../../../src/scaling/manual-scale';
import type { ScaleStreamRequest, Segment } from '../api/types';
import {
  blocksText,
  firstChoice,
  MAX_NEW_RANGES,
  scalePlan,
  selectionSummary,
  splitRange,
} from './scale-plan';

/** Segments numbered from `first` over consecutive bounds. */
const segmentsOver = (bounds: number[], first = 0): Segment[] =>
  bounds.slice(1).map((keyEnd, i) => ({
    number: first + i,
    startTime: 1000,
    keyStart: bounds[i],
    keyEnd,
  }));

/** Five segments, 3 to 7, whose bounds are sums that are not the round numbers they look like. */
const active = segmentsOver([0, 0.1, 0.1 + 0.2, 0.7, 0.9, 1], 3);

/** What the service answers for the plan's request on those segments (it throws if it refuses). */
const accepted = (segments: Segment[], request: ScaleStreamRequest) =>
  planScale({ epoch: 2, active: segments, nextNumber: 100, minSegments: 1 }, request, 5000);

const requestOf = (plan: ReturnType<typeof scalePlan>) => {
  if (!('request' in plan)) throw new Error(`no request: ${plan.problem}`);
  return plan.request;
};

describe('splitRange', () => {
  it('cuts the whole key space at i/n, as the service makes equal segments', () => {
    expect(splitRange({ keyStart: 0, keyEnd: 1 }, 3)).toEqual([
      { keyStart: 0, keyEnd: 1 / 3 },
      { keyStart: 1 / 3, keyEnd: 2 / 3 },
      { keyStart: 2 / 3, keyEnd: 1 },
    ]);
  });

  it("starts and ends on the range's very bounds, where the arithmetic would miss them", () => {
    // 0.2 + (0.9 - 0.2) is 0.8999999999999999: the last part ends on 0.9 itself.
    expect(0.2 + (0.9 - 0.2)).not.toBe(0.9);
    const half = 0.2 + (0.9 - 0.2) / 2;
    expect(splitRange({ keyStart: 0.2, keyEnd: 0.9 }, 2)).toEqual([
      { keyStart: 0.2, keyEnd: half },
      { keyStart: half, keyEnd: 0.9 },
    ]);
  });

  it('answers nothing for a range too narrow for that many distinct bounds', () => {
    const narrow = { keyStart: 0.5, keyEnd: 0.5 + Number.EPSILON / 2 };
    expect(splitRange(narrow, 2)).toBeUndefined();
    expect(splitRange({ keyStart: 0.5, keyEnd: 0.5 + 4 * Number.EPSILON }, 2)).toHaveLength(2);
  });

  it('always makes parts the service accepts for the sealed range, whatever the bounds', () => {
    const inner = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
    fc.assert(
      fc.property(inner, inner, fc.integer({ min: 2, max: 50 }), (a, b, parts) => {
        fc.pre(a !== b);
        const [keyStart, keyEnd] = a < b ? [a, b] : [b, a];
        const segment = { number: 0, startTime: 0, keyStart, keyEnd };
        const ranges = splitRange(segment, parts);
        if (!ranges) return;
        expect(ranges).toHaveLength(parts);
        for (const range of ranges) expect(range.keyStart).toBeLessThan(range.keyEnd);
        // Rule 1's check (no overlaps), then rules 3 to 5 (exact cover among them).
        expect(overlappingRanges(ranges).size).toBe(0);
        const outcome = planScale(
          { epoch: 0, active: [segment], nextNumber: 1, minSegments: 1 },
          { sealedSegments: [0], newRanges: ranges },
          1,
        );
        expect(outcome.newSegments).toHaveLength(parts);
      }),
    );
  });
});

describe('scalePlan', () => {
  it('splits a segment into N equal parts the API accepts', () => {
    const plan = scalePlan(active, new Set([4]), { kind: 'split', parts: '3' });
    const request = requestOf(plan);
    const third = (0.1 + 0.2 - 0.1) / 3;
    expect(request).toEqual({
      sealedSegments: [4],
      newRanges: [
        { keyStart: 0.1, keyEnd: 0.1 + third },
        { keyStart: 0.1 + third, keyEnd: 0.1 + 2 * third },
        { keyStart: 0.1 + 2 * third, keyEnd: 0.1 + 0.2 },
      ],
    });
    expect(accepted(active, request).newSegments.map((s) => s.number)).toEqual([100, 101, 102]);
  });

  it('splits each of several segments, neighbours or not, in key order', () => {
    const request = requestOf(scalePlan(active, new Set([7, 3]), { kind: 'split', parts: '2' }));
    expect(request.sealedSegments).toEqual([3, 7]);
    expect(request.newRanges).toEqual([
      { keyStart: 0, keyEnd: 0.05 },
      { keyStart: 0.05, keyEnd: 0.1 },
      { keyStart: 0.9, keyEnd: 0.95 },
      { keyStart: 0.95, keyEnd: 1 },
    ]);
    expect(accepted(active, request).splits).toBe(2);
  });

  it('merges neighbours into one segment over exactly their key space', () => {
    const request = requestOf(scalePlan(active, new Set([5, 4, 6]), { kind: 'merge' }));
    expect(request).toEqual({
      sealedSegments: [4, 5, 6],
      newRanges: [{ keyStart: 0.1, keyEnd: 0.9 }],
    });
    expect(accepted(active, request).merges).toBe(1);
  });

  it('explains a merge of segments that are not neighbours, and makes no request', () => {
    expect(scalePlan(active, new Set([3, 5]), { kind: 'merge' })).toEqual({
      problem:
        'Segments 3 and 5 are not neighbours: segment 4 lies between them. Only neighbouring ' +
        'segments merge into one: select the segments between them too, or split instead.',
    });
    expect(scalePlan(active, new Set([3, 4, 7]), { kind: 'merge' })).toEqual({
      problem:
        'Segments 4 and 7 are not neighbours: segments 5 and 6 lie between them. Only ' +
        'neighbouring segments merge into one: select the segments between them too, or split ' +
        'instead.',
    });
  });

  it('does not take touching for bounds that only look equal', () => {
    // 0.1 + 0.2 and 0.3 are two numbers: a gap the API would not join.
    const apart = segmentsOver([0, 0.1 + 0.2, 0.5]).concat(segmentsOver([0.3, 0.6, 1], 2));
    expect(scalePlan(apart, new Set([0, 2]), { kind: 'merge' })).toEqual({
      problem:
        'Segments 0 and 2 are not neighbours. Only neighbouring segments merge into one: ' +
        'select the segments between them too, or split instead.',
    });
  });

  it('asks for a selection, and for two segments to merge', () => {
    expect(scalePlan(active, new Set(), { kind: 'split', parts: '2' })).toEqual({
      problem: 'Select one or more active segments on the map.',
    });
    expect(scalePlan(active, new Set([42]), { kind: 'merge' })).toEqual({
      problem: 'Select one or more active segments on the map.',
    });
    expect(scalePlan(active, new Set([4]), { kind: 'merge' })).toEqual({
      problem: 'Select two or more neighbouring segments to merge them.',
    });
  });

  it.each([
    ['', 'must be a whole number, 2 or more'],
    ['1', 'must be a whole number, 2 or more'],
    ['2.5', 'must be a whole number, 2 or more'],
    ['two', 'must be a whole number, 2 or more'],
    ['-3', 'must be a whole number, 2 or more'],
    [
      String(MAX_NEW_RANGES + 1),
      'must be at most 1000 for one segment: a scale opens at most 1000 segments',
    ],
  ])('refuses %p parts: %p', (parts, problem) => {
    expect(scalePlan(active, new Set([4]), { kind: 'split', parts })).toEqual({
      problem,
      field: 'parts',
    });
  });

  it('keeps a split of several segments within the API’s 1,000 new ranges', () => {
    const three = new Set([3, 4, 5]);
    expect(scalePlan(active, three, { kind: 'split', parts: '334' })).toEqual({
      problem: 'must be at most 333 for 3 segments: a scale opens at most 1000 segments',
      field: 'parts',
    });
    expect(
      requestOf(scalePlan(active, three, { kind: 'split', parts: '333' })).newRanges,
    ).toHaveLength(999);
  });

  it('says which segment is too narrow to split', () => {
    const narrow = segmentsOver([0, 0.5, 0.5 + Number.EPSILON / 2, 1]);
    expect(scalePlan(narrow, new Set([1]), { kind: 'split', parts: '2' })).toEqual({
      problem: 'Segment 1 is too narrow to split into 2 parts.',
      field: 'parts',
    });
  });
});

describe('firstChoice', () => {
  it('merges two or more neighbours, and splits anything else', () => {
    expect(firstChoice(active, new Set([4]))).toBe('split');
    expect(firstChoice(active, new Set([4, 5]))).toBe('merge');
    expect(firstChoice(active, new Set([3, 5]))).toBe('split');
  });
});

describe('the selection in words', () => {
  it('names the segments and the key space they cover', () => {
    expect(selectionSummary(active, new Set())).toBe('No segment selected to scale.');
    expect(selectionSummary(active, new Set([4]))).toBe(
      'Selected to scale: segment 4, [0.1, 0.3).',
    );
    expect(selectionSummary(active, new Set([5, 4]))).toBe(
      'Selected to scale: segments 4 and 5, [0.1, 0.7).',
    );
    expect(selectionSummary(active, new Set([7, 3, 4]))).toBe(
      'Selected to scale: segments 3, 4 and 7, [0, 0.3) and [0.9, 1).',
    );
  });

  it('joins only bounds that are the very same number', () => {
    expect(blocksText(segmentsOver([0, 0.1 + 0.2]).concat(segmentsOver([0.3, 1], 1)))).toBe(
      '[0, 0.3) and [0.3, 1)',
    );
  });
});
