import fc from 'fast-check';
import { equalKeyRanges } from './key-ranges';
import {
  buildScaleRecords,
  Epoch,
  nextEpochTime,
  SegmentRecord,
  selectWindow,
} from './scaling-history';

/** A history where every scale replaces all segments, as an update does. */
function history(
  counts: number[],
  start = 1000,
  gap = 10,
): { epochs: Epoch[]; segments: SegmentRecord[] } {
  const epochs: Epoch[] = [];
  const segments: SegmentRecord[] = [];
  let number = 0;
  counts.forEach((n, epoch) => {
    const timestamp = start + epoch * gap;
    epochs.push({ epoch, timestamp });
    segments
      .filter((s) => s.sealedIn === undefined && s.createdIn < epoch)
      .forEach((s) => (s.sealedIn = epoch));
    equalKeyRanges(n).forEach((range) =>
      segments.push({ ...range, number: number++, startTime: timestamp, createdIn: epoch }),
    );
  });
  return { epochs, segments };
}

describe('selectWindow', () => {
  const epochs: Epoch[] = [100, 200, 300, 400].map((timestamp, epoch) => ({ epoch, timestamp }));
  const picked = (from: number, to: number) => selectWindow(epochs, from, to).map((e) => e.epoch);

  it('shows only the active epoch for a window before any change', () => {
    expect(picked(250, 290)).toEqual([1]);
  });

  it('includes epochs created exactly at from and at to', () => {
    expect(picked(200, 300)).toEqual([1, 2]);
  });

  it('prepends the epoch active at from when it began earlier', () => {
    expect(picked(150, 300)).toEqual([0, 1, 2]);
  });

  it('is empty before the stream existed', () => {
    expect(picked(0, 99)).toEqual([]);
  });

  it('reaches up to the last epoch, and past it shows only the last', () => {
    expect(picked(0, 1000)).toEqual([0, 1, 2, 3]);
    expect(picked(500, 600)).toEqual([3]);
  });

  it('is ascending, within the window but for the first, for any window', () => {
    fc.assert(
      fc.property(fc.nat(500), fc.nat(500), (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const chosen = selectWindow(epochs, from, to);
        chosen.forEach((e, i) => {
          if (i > 0) expect(e.timestamp).toBeGreaterThan(chosen[i - 1].timestamp);
          if (i > 0 || e.timestamp >= from) {
            expect(e.timestamp).toBeGreaterThanOrEqual(from);
            expect(e.timestamp).toBeLessThanOrEqual(to);
          }
        });
      }),
    );
  });
});

describe('buildScaleRecords', () => {
  it('reproduces the worked example: 3 segments rescaled to 4', () => {
    const { epochs, segments } = history([3, 4]);
    const records = buildScaleRecords(epochs, segments);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ timestamp: 1000, splits: 0, merges: 0 });
    expect(records[0].segmentList.map((s) => s.number)).toEqual([0, 1, 2]);
    expect(records[1]).toMatchObject({ timestamp: 1010, splits: 3, merges: 2 });
    expect(records[1].segmentList).toEqual([
      { number: 3, startTime: 1010, keyStart: 0, keyEnd: 0.25 },
      { number: 4, startTime: 1010, keyStart: 0.25, keyEnd: 0.5 },
      { number: 5, startTime: 1010, keyStart: 0.5, keyEnd: 0.75 },
      { number: 6, startTime: 1010, keyStart: 0.75, keyEnd: 1 },
    ]);
  });

  it('keeps surviving segments in the epochs they live through', () => {
    const segments: SegmentRecord[] = [
      { number: 0, startTime: 1, keyStart: 0, keyEnd: 0.5, createdIn: 0 },
      { number: 1, startTime: 1, keyStart: 0.5, keyEnd: 1, createdIn: 0, sealedIn: 1 },
      { number: 2, startTime: 5, keyStart: 0.5, keyEnd: 0.75, createdIn: 1 },
      { number: 3, startTime: 5, keyStart: 0.75, keyEnd: 1, createdIn: 1 },
    ];
    const records = buildScaleRecords(
      [
        { epoch: 0, timestamp: 1 },
        { epoch: 1, timestamp: 5 },
      ],
      segments,
    );
    expect(records[1].segmentList.map((s) => s.number)).toEqual([0, 2, 3]);
    expect(records[1]).toMatchObject({ splits: 1, merges: 0 });
  });

  it('starts every answer with 0 splits and 0 merges and bounds the counts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 12 }),
        fc.nat(11),
        (counts, skip) => {
          const { epochs, segments } = history(counts);
          const shown = epochs.slice(Math.min(skip, epochs.length - 1));
          const records = buildScaleRecords(shown, segments);
          expect(records[0]).toMatchObject({ splits: 0, merges: 0 });
          records.forEach((record, i) => {
            expect(record.segmentList).toHaveLength(counts[shown[i].epoch]);
            if (i > 0) {
              expect(record.timestamp).toBeGreaterThan(records[i - 1].timestamp);
              expect(record.splits).toBeLessThanOrEqual(records[i - 1].segmentList.length);
              expect(record.merges).toBeLessThanOrEqual(record.segmentList.length);
            }
          });
        },
      ),
    );
  });
});

describe('buildScaleRecords on any window', () => {
  it('lists in each epoch exactly the segments alive in it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 15 }),
        fc.nat(14),
        fc.nat(14),
        (counts, a, b) => {
          const { epochs, segments } = history(counts);
          const [from, to] = [Math.min(a, b), Math.max(a, b)].map((i) =>
            Math.min(i, epochs.length - 1),
          );
          const shown = epochs.slice(from, to + 1);
          buildScaleRecords(shown, segments).forEach((record, i) => {
            const epoch = shown[i].epoch;
            const alive = segments
              .filter(
                (s) => s.createdIn <= epoch && (s.sealedIn === undefined || s.sealedIn > epoch),
              )
              .map((s) => s.number);
            expect(record.segmentList.map((s) => s.number)).toEqual(alive);
          });
        },
      ),
    );
  });
});

describe('nextEpochTime', () => {
  it('is now, unless that is not after the previous epoch', () => {
    expect(nextEpochTime(100, 200)).toBe(200);
    expect(nextEpochTime(100, 100)).toBe(101);
    expect(nextEpochTime(100, 50)).toBe(101);
  });
});
