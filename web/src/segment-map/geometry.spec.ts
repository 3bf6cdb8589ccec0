import {
  epochLines,
  neighbour,
  segmentAt,
  segmentRects,
  timeTicks,
  timeToX,
  View,
  xToTime,
} from './geometry';
import { SegmentSpan } from './segment-history';

const view: View = { from: 1000, to: 2000, width: 500, height: 200 };

const span = (
  number: number,
  start: number,
  end: number | undefined,
  keyStart: number,
  keyEnd: number,
  links: Partial<Pick<SegmentSpan, 'predecessors' | 'successors'>> = {},
): SegmentSpan => ({
  number,
  start,
  end,
  keyStart,
  keyEnd,
  predecessors: [],
  successors: [],
  firstRecord: 0,
  ...links,
});

describe('segmentRects', () => {
  it('draws time to the right and the key space upwards', () => {
    expect(segmentRects([span(0, 1200, 1600, 0, 0.25)], view, 2000)).toEqual([
      { number: 0, x: 100, y: 150, w: 200, h: 50 },
    ]);
    expect(segmentRects([span(1, 1200, 1600, 0.75, 1)], view, 2000)).toEqual([
      { number: 1, x: 100, y: 0, w: 200, h: 50 },
    ]);
  });

  it('runs an active segment to now, and cuts at the edges of the window', () => {
    expect(segmentRects([span(0, 1500, undefined, 0, 1)], view, 1800)).toEqual([
      { number: 0, x: 250, y: 0, w: 150, h: 200 },
    ]);
    expect(segmentRects([span(0, 500, 2500, 0.5, 1)], view, 3000)).toEqual([
      { number: 0, x: 0, y: 0, w: 500, h: 100 },
    ]);
  });

  it('leaves out segments outside the window and keeps the shortest visible', () => {
    expect(
      segmentRects(
        [span(0, 100, 900, 0, 1), span(1, 2100, undefined, 0, 1), span(2, 1500, 1500, 0, 1)],
        view,
        3000,
      ),
    ).toEqual([{ number: 2, x: 250, y: 0, w: 1, h: 200 }]);
  });

  it('keeps a segment that ends exactly at the right edge inside the plot', () => {
    expect(segmentRects([span(0, 2000, 2000, 0, 1)], view, 3000)).toEqual([
      { number: 0, x: 499, y: 0, w: 1, h: 200 },
    ]);
  });
});

describe('segmentAt', () => {
  const rects = [
    { number: 0, x: 0, y: 0, w: 100, h: 100 },
    { number: 1, x: 50, y: 50, w: 100, h: 100 },
  ];
  it.each([
    [10, 10, 0],
    [60, 60, 1],
    [149, 149, 1],
    [150, 150, undefined],
    [120, 20, undefined],
  ])('(%p, %p) is segment %p', (x, y, number) => {
    expect(segmentAt(rects, x, y)).toEqual(number);
  });
});

describe('time and pixels', () => {
  it('are each other inverse', () => {
    expect(timeToX(1250, view)).toEqual(125);
    expect(xToTime(125, view)).toEqual(1250);
  });
});

describe('epochLines', () => {
  it('gives one line per pixel at most, inside the window only', () => {
    expect(epochLines([500, 1000, 1001, 1002, 1500, 2000, 2500], view)).toEqual([0, 1, 250, 500]);
  });
});

describe('timeTicks', () => {
  it('picks a round step that fits', () => {
    expect(timeTicks(0, 10_000, 5)).toEqual([0, 2000, 4000, 6000, 8000, 10_000]);
    expect(timeTicks(1500, 4500, 3)).toEqual([2000, 3000, 4000]);
    expect(timeTicks(0, 3 * 3_600_000, 3)).toEqual([0, 3_600_000, 7_200_000, 10_800_000]);
  });
  it('gives none for an empty window', () => {
    expect(timeTicks(5, 5, 4)).toEqual([]);
  });
});

describe('neighbour', () => {
  // 0 [0,.5) and 1 [.5,1) from 100; 1 splits at 200 into 2 [.5,.75) and 3 [.75,1).
  const segments = [
    span(0, 100, undefined, 0, 0.5),
    span(1, 100, 200, 0.5, 1, { successors: [2, 3] }),
    span(2, 200, undefined, 0.5, 0.75, { predecessors: [1] }),
    span(3, 200, undefined, 0.75, 1, { predecessors: [1] }),
  ];
  it('goes to successors and predecessors in time', () => {
    expect(neighbour(segments, segments[1], 'later')).toEqual(2);
    expect(neighbour(segments, segments[2], 'earlier')).toEqual(1);
    expect(neighbour(segments, segments[0], 'earlier')).toEqual(undefined);
  });
  it('goes up and down the key space at the moment the segment began', () => {
    expect(neighbour(segments, segments[0], 'up')).toEqual(1);
    expect(neighbour(segments, segments[2], 'up')).toEqual(3);
    expect(neighbour(segments, segments[2], 'down')).toEqual(0);
    expect(neighbour(segments, segments[3], 'up')).toEqual(undefined);
    expect(neighbour(segments, segments[0], 'up', 250)).toEqual(2);
  });
});
