import { currentEpochTime, endsWithCurrent, withActiveSegments } from './current-segments';
import { segmentHistory } from './segment-history';

const segment = (number: number, startTime: number, keyStart: number, keyEnd: number) => ({
  number,
  startTime,
  keyStart,
  keyEnd,
});
const record = (timestamp: number, segmentList: ReturnType<typeof segment>[]) => ({
  timestamp,
  splits: 0,
  merges: 0,
  segmentList,
});

const records = [
  record(1000, [segment(0, 1000, 0, 0.5), segment(1, 1000, 0.5, 1)]),
  record(2000, [segment(0, 1000, 0, 0.5), segment(2, 2000, 0.5, 0.75), segment(3, 2000, 0.75, 1)]),
];

describe('endsWithCurrent', () => {
  it('is true when the latest record has the current segments', () => {
    const current = [
      segment(0, 1000, 0, 0.5),
      segment(2, 2000, 0.5, 0.75),
      segment(3, 2000, 0.75, 1),
    ];
    expect(endsWithCurrent(records, current)).toBe(true);
    expect(endsWithCurrent([...records].reverse(), current)).toBe(true);
  });

  it('is false when the stream scaled after the records, or before them', () => {
    const later = [
      segment(0, 1000, 0, 0.5),
      segment(2, 2000, 0.5, 0.75),
      segment(4, 3000, 0.75, 1),
    ];
    expect(endsWithCurrent(records, later)).toBe(false);
    expect(endsWithCurrent(records, records[0].segmentList)).toBe(false);
    expect(endsWithCurrent([], later)).toBe(false);
  });
});

describe('currentEpochTime', () => {
  it('is the latest start among the segments', () => {
    expect(currentEpochTime(records[1].segmentList)).toBe(2000);
  });
});

describe('withActiveSegments', () => {
  it('keeps the history and takes the active segments from the answer', () => {
    const history = segmentHistory(records);
    const current = [
      segment(0, 1000, 0, 0.5),
      segment(2, 2000, 0.5, 0.75),
      segment(3, 2000, 0.75, 1),
    ];
    expect(withActiveSegments(history, current)).toEqual(history);
  });

  it('adds an active segment the records lack, and runs the answer’s segments to now', () => {
    const history = segmentHistory(records.slice(0, 1));
    const merged = withActiveSegments(history, [
      segment(0, 1000, 0, 0.5),
      segment(5, 3000, 0.5, 1),
    ]);
    expect(
      merged.segments.map(({ number, start, end, keyStart, keyEnd }) => ({
        number,
        start,
        end,
        keyStart,
        keyEnd,
      })),
    ).toEqual([
      { number: 0, start: 1000, end: undefined, keyStart: 0, keyEnd: 0.5 },
      { number: 1, start: 1000, end: undefined, keyStart: 0.5, keyEnd: 1 },
      { number: 5, start: 3000, end: undefined, keyStart: 0.5, keyEnd: 1 },
    ]);
    expect(merged.segments[2]).toMatchObject({ predecessors: [], successors: [], firstRecord: 1 });
    expect(merged.times).toEqual(history.times);
  });
});
