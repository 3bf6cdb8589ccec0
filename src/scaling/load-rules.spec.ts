import fc from 'fast-check';
import { equalKeyRanges } from './key-ranges';
import {
  coldDecision,
  decide,
  LoadedStream,
  LoadReport,
  LoadSettings,
  SegmentMarks,
  splitCount,
  splitRange,
  wantedOf,
} from './load-rules';
import type { Segment } from './manual-scale';

const MINUTE = 60_000;
const NOW = 1_764_000_000_000;
const SETTINGS: LoadSettings = {
  cooldownMs: 10 * MINUTE,
  muteMs: 10 * MINUTE,
  coldMs: 10 * MINUTE,
};

const report = (over: Partial<LoadReport> = {}): LoadReport => ({
  segment: 0,
  since: NOW - 30 * MINUTE,
  twoMinuteRate: 0,
  fiveMinuteRate: 0,
  tenMinuteRate: 0,
  twentyMinuteRate: 0,
  ...over,
});

/** `k` segments tiling the key space, numbered 0..k-1, opened an hour ago. */
const tiling = (k: number): Segment[] =>
  equalKeyRanges(k).map((range, number) => ({ ...range, number, startTime: NOW - 60 * MINUTE }));

const stream = (
  active: Segment[],
  over: Partial<Omit<LoadedStream, 'active'>> = {},
): LoadedStream => ({
  active,
  marks: new Map(),
  minSegments: 1,
  targetRate: 100,
  scaleFactor: 3,
  ...over,
});

const rate = fc.double({ min: 0, max: 10_000, noNaN: true });
const reports = fc.record({
  segment: fc.constant(0),
  since: fc.integer({ min: NOW - 40 * MINUTE, max: NOW + MINUTE }),
  twoMinuteRate: rate,
  fiveMinuteRate: rate,
  tenMinuteRate: rate,
  twentyMinuteRate: rate,
});

describe('wantedOf', () => {
  it('leaves a segment reported on for no longer than the cooldown alone, whatever its rates', () => {
    const hot = report({ since: NOW - 10 * MINUTE, twoMinuteRate: 1e6 });
    expect(wantedOf(hot, NOW, 100, SETTINGS.cooldownMs)).toEqual({
      direction: 'none',
      reason: 'COOLING_DOWN',
    });
  });

  it("wants up by the first of the reference's thresholds crossed, with the splits the highest rate asks", () => {
    expect(wantedOf(report({ twoMinuteRate: 620.5 }), NOW, 100, 0)).toEqual({
      direction: 'up',
      splits: 6,
      because: 'two-minute rate 620.5 > 5 x 100',
    });
    expect(wantedOf(report({ fiveMinuteRate: 250, tenMinuteRate: 90 }), NOW, 100, 0)).toEqual({
      direction: 'up',
      splits: 2,
      because: 'five-minute rate 250 > 2 x 100',
    });
    // Each threshold needs its window's age: eleven minutes of measure, the ten-minute one counts.
    const young = report({ since: NOW - 4 * MINUTE, fiveMinuteRate: 1000, tenMinuteRate: 1000 });
    expect(wantedOf(young, NOW, 100, 0).direction).toBe('none');
  });

  it('wants down only when every rate is low and twenty minutes have been measured', () => {
    const cold = report({
      twoMinuteRate: 99,
      fiveMinuteRate: 50,
      tenMinuteRate: 10,
      twentyMinuteRate: 49,
    });
    expect(wantedOf(cold, NOW, 100, 0).direction).toBe('down');
    expect(wantedOf({ ...cold, twentyMinuteRate: 50 }, NOW, 100, 0).direction).toBe('none');
    expect(wantedOf({ ...cold, since: NOW - 20 * MINUTE }, NOW, 100, 0).direction).toBe('none');
  });

  it("is the reference's decision for any rates and ages", () => {
    fc.assert(
      fc.property(reports, fc.double({ min: 0.5, max: 1000, noNaN: true }), (r, target) => {
        const age = NOW - r.since;
        const wanted = wantedOf(r, NOW, target, SETTINGS.cooldownMs);
        // The reference's rules, said as plainly as it says them.
        const up =
          (r.twoMinuteRate > 5 * target && age > 2 * MINUTE) ||
          (r.fiveMinuteRate > 2 * target && age > 5 * MINUTE) ||
          (r.tenMinuteRate > target && age > 10 * MINUTE);
        const down =
          [r.twoMinuteRate, r.fiveMinuteRate, r.tenMinuteRate].every((x) => x < target) &&
          r.twentyMinuteRate < target / 2 &&
          age > 20 * MINUTE;
        if (age <= SETTINGS.cooldownMs) expect(wanted.direction).toBe('none');
        else if (up) {
          const highest = Math.max(r.twoMinuteRate, r.fiveMinuteRate, r.tenMinuteRate);
          expect(wanted).toMatchObject({
            direction: 'up',
            splits: Math.max(2, Math.floor(highest / target)),
          });
        } else expect(wanted.direction).toBe(down ? 'down' : 'none');
      }),
    );
  });
});

describe('splitRange and splitCount', () => {
  it('splits as asked, at most the scale factor, and at least in two', () => {
    expect(splitCount(6, 3)).toBe(3);
    expect(splitCount(2, 10)).toBe(2);
    expect(splitCount(5, 1)).toBe(2);
    expect(splitCount(5, 0)).toBe(2);
  });

  it("tiles the segment exactly: its start, the next one's start as each end, its end", () => {
    const bounds = fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
      .filter(([a, b]) => Math.abs(a - b) > 1e-9)
      .map(([a, b]) => ({ keyStart: Math.min(a, b), keyEnd: Math.max(a, b) }));
    fc.assert(
      fc.property(bounds, fc.integer({ min: 2, max: 64 }), (range, n) => {
        const parts = splitRange(range, n);
        expect(parts).toHaveLength(n);
        expect(parts[0].keyStart).toBe(range.keyStart);
        expect(parts[n - 1].keyEnd).toBe(range.keyEnd);
        parts.forEach((part, i) => {
          expect(part.keyStart).toBeLessThan(part.keyEnd);
          if (i > 0) expect(part.keyStart).toBe(parts[i - 1].keyEnd);
        });
      }),
    );
  });
});

describe('decide', () => {
  const hot = report({ twoMinuteRate: 620.5 });
  const cold = report({ twentyMinuteRate: 10 });

  it('splits a hot segment by the scale factor, and then mutes it both ways', () => {
    const [, second] = tiling(2);
    const decision = decide(stream(tiling(2)), second, { ...hot, segment: 1 }, NOW, SETTINGS);
    expect(decision).toEqual({
      outcome: 'scaledUp',
      scale: {
        sealedSegments: [1],
        newRanges: [
          { keyStart: 0.5, keyEnd: 0.5 + 0.5 / 3 },
          { keyStart: 0.5 + 0.5 / 3, keyEnd: 0.5 + 2 * (0.5 / 3) },
          { keyStart: 0.5 + 2 * (0.5 / 3), keyEnd: 1 },
        ],
      },
      because: 'two-minute rate 620.5 > 5 x 100: split into 3',
      marks: new Map([[1, { lastUp: NOW, lastDown: NOW }]]),
    });
  });

  it('mutes each direction until its last scale is more than the mute ago, its start time at first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 * MINUTE }),
        fc.integer({ min: 0, max: 30 * MINUTE }),
        fc.boolean(),
        (sinceUp, sinceDown, wantsUp) => {
          const [segment, other] = tiling(2);
          const marks: SegmentMarks = {
            lastUp: NOW - sinceUp,
            lastDown: NOW - sinceDown,
            coldUntil: undefined,
          };
          const loaded = stream([segment, other], { marks: new Map([[0, marks]]) });
          const decision = decide(loaded, segment, wantsUp ? hot : cold, NOW, SETTINGS);
          const since = wantsUp ? sinceUp : sinceDown;
          if (since > SETTINGS.muteMs) expect(decision.outcome).not.toBe('muted');
          else expect(decision).toEqual({ outcome: 'muted', wanted: wantsUp ? 'up' : 'down' });
        },
      ),
    );
    // With no marks stored, a segment opened five minutes ago is muted by its start time.
    const young = { ...tiling(1)[0], startTime: NOW - 5 * MINUTE };
    expect(decide(stream([young]), young, hot, NOW, SETTINGS)).toEqual({
      outcome: 'muted',
      wanted: 'up',
    });
  });

  it('marks a cold segment, and merges it with its cold neighbours, never below the minimum', () => {
    const segments = tiling(4);
    const marked = new Map<number, SegmentMarks>([
      [0, { lastUp: 0, lastDown: 0, coldUntil: NOW + MINUTE }],
      [2, { lastUp: 0, lastDown: 0, coldUntil: NOW + MINUTE }],
    ]);
    const down = decide(stream(segments, { marks: marked }), segments[1], cold, NOW, SETTINGS);
    expect(down).toMatchObject({
      outcome: 'scaledDown',
      scale: { sealedSegments: [0, 1, 2], newRanges: [{ keyStart: 0, keyEnd: 0.75 }] },
    });
    const atThree = decide(
      stream(segments, { marks: marked, minSegments: 3 }),
      segments[1],
      cold,
      NOW,
      SETTINGS,
    );
    expect(atThree).toMatchObject({
      outcome: 'scaledDown',
      scale: { sealedSegments: [0, 1], newRanges: [{ keyStart: 0, keyEnd: 0.5 }] },
    });
    expect(
      decide(stream(segments, { minSegments: 4 }), segments[1], cold, NOW, SETTINGS),
    ).toMatchObject({ outcome: 'markedCold', reason: 'AT_MIN_SEGMENTS' });
    expect(decide(stream(segments), segments[3], cold, NOW, SETTINGS)).toEqual({
      outcome: 'markedCold',
      reason: 'NO_COLD_NEIGHBOUR',
      marks: new Map([
        [3, { lastUp: NOW - 60 * MINUTE, lastDown: NOW, coldUntil: NOW + SETTINGS.coldMs }],
      ]),
    });
  });

  it('merges only contiguous neighbours that are cold now, and never leaves fewer than minSegments', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 12 })
          .chain((k) =>
            fc.tuple(
              fc.constant(k),
              fc.integer({ min: 0, max: k - 1 }),
              fc.integer({ min: 1, max: k }),
              fc.array(fc.integer({ min: -MINUTE, max: MINUTE }), { minLength: k, maxLength: k }),
            ),
          ),
        ([k, at, minSegments, coldFor]) => {
          const segments = tiling(k);
          const marks = new Map(
            coldFor.map((d, i) => [i, { lastUp: 0, lastDown: 0, coldUntil: NOW + d }]),
          );
          const loaded = stream(segments, { marks, minSegments });
          const decision = coldDecision(loaded, segments[at], NOW, SETTINGS, 'cold');
          if (decision.outcome !== 'scaledDown') return;
          const sealed = decision.scale.sealedSegments;
          expect(sealed).toContain(at);
          expect(sealed.length).toBeGreaterThanOrEqual(2);
          // Contiguous, in key order; each other one cold now.
          sealed.forEach((n, i) => {
            if (i > 0) expect(segments[n].keyStart).toBe(segments[sealed[i - 1]].keyEnd);
            if (n !== at) expect(marks.get(n)!.coldUntil).toBeGreaterThan(NOW);
          });
          expect(decision.scale.newRanges).toEqual([
            { keyStart: segments[sealed[0]].keyStart, keyEnd: segments[sealed.at(-1)!].keyEnd },
          ]);
          expect(k - sealed.length + 1).toBeGreaterThanOrEqual(minSegments);
        },
      ),
    );
  });
});
