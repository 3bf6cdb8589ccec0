import type { ScaleMetadata } from '../api/types';
import { segmentHistory } from './segment-history';

const segment = (number: number, startTime: number, keyStart: number, keyEnd: number) => ({
  number,
  startTime,
  keyStart,
  keyEnd,
});

const record = (
  timestamp: number,
  ...segmentList: ReturnType<typeof segment>[]
): ScaleMetadata => ({
  timestamp,
  splits: 0,
  merges: 0,
  segmentList,
});

describe('segmentHistory', () => {
  it('follows a split and a merge: ends, predecessors and successors', () => {
    // Epoch 0: 0 | 1; epoch 1: 1 split into 2, 3; epoch 2: 0 and 2 merged into 4.
    const history = segmentHistory([
      record(100, segment(0, 100, 0, 0.5), segment(1, 100, 0.5, 1)),
      record(200, segment(0, 100, 0, 0.5), segment(2, 200, 0.5, 0.75), segment(3, 200, 0.75, 1)),
      record(300, segment(3, 200, 0.75, 1), segment(4, 300, 0, 0.75)),
    ]);
    expect(history.segments).toEqual([
      {
        number: 0,
        keyStart: 0,
        keyEnd: 0.5,
        start: 100,
        end: 300,
        predecessors: [],
        successors: [4],
        firstRecord: 0,
      },
      {
        number: 1,
        keyStart: 0.5,
        keyEnd: 1,
        start: 100,
        end: 200,
        predecessors: [],
        successors: [2, 3],
        firstRecord: 0,
      },
      {
        number: 2,
        keyStart: 0.5,
        keyEnd: 0.75,
        start: 200,
        end: 300,
        predecessors: [1],
        successors: [4],
        firstRecord: 1,
      },
      {
        number: 3,
        keyStart: 0.75,
        keyEnd: 1,
        start: 200,
        predecessors: [1],
        successors: [],
        firstRecord: 1,
      },
      {
        number: 4,
        keyStart: 0,
        keyEnd: 0.75,
        start: 300,
        predecessors: [0, 2],
        successors: [],
        firstRecord: 2,
      },
    ]);
    expect(history.times).toEqual([100, 200, 300]);
    expect(history.counts).toEqual([2, 3, 2]);
  });

  it('links a rescale of every segment by overlap only', () => {
    // Three equal segments become two: 0 [0,1/3) 1 [1/3,2/3) 2 [2/3,1) -> 3 [0,.5) 4 [.5,1).
    const third = 1 / 3;
    const history = segmentHistory([
      record(
        1,
        segment(0, 1, 0, third),
        segment(1, 1, third, 2 * third),
        segment(2, 1, 2 * third, 1),
      ),
      record(2, segment(3, 2, 0, 0.5), segment(4, 2, 0.5, 1)),
    ]);
    const links = history.segments.map(({ number, predecessors, successors }) => ({
      number,
      predecessors,
      successors,
    }));
    expect(links).toEqual([
      { number: 0, predecessors: [], successors: [3] },
      { number: 1, predecessors: [], successors: [3, 4] },
      { number: 2, predecessors: [], successors: [4] },
      { number: 3, predecessors: [0, 1], successors: [] },
      { number: 4, predecessors: [1, 2], successors: [] },
    ]);
  });

  it('does not link ranges that only touch', () => {
    const history = segmentHistory([
      record(1, segment(0, 1, 0, 0.5), segment(1, 1, 0.5, 1)),
      record(2, segment(0, 1, 0, 0.5), segment(2, 2, 0.5, 1)),
    ]);
    expect(
      history.segments.map((span) => [span.number, span.predecessors, span.successors]),
    ).toEqual([
      [0, [], []],
      [1, [], [2]],
      [2, [1], []],
    ]);
  });

  it('reads records in time order whatever order they come in, and none as nothing', () => {
    const forwards = segmentHistory([
      record(1, segment(0, 1, 0, 1)),
      record(2, segment(1, 2, 0, 1)),
    ]);
    const backwards = segmentHistory([
      record(2, segment(1, 2, 0, 1)),
      record(1, segment(0, 1, 0, 1)),
    ]);
    expect(backwards).toEqual(forwards);
    expect(segmentHistory([])).toEqual({ segments: [], times: [], counts: [] });
  });

  it('keeps the start of a segment that began before the first record', () => {
    const history = segmentHistory([record(500, segment(7, 42, 0, 1))]);
    expect(history.segments).toEqual([
      {
        number: 7,
        keyStart: 0,
        keyEnd: 1,
        start: 42,
        predecessors: [],
        successors: [],
        firstRecord: 0,
      },
    ]);
  });
});
