import { previewRects } from './preview-geometry';

const segment = (number: number, keyStart: number, keyEnd: number, startTime = 1000) => ({
  number,
  startTime,
  keyStart,
  keyEnd,
});

describe('previewRects', () => {
  it('ends sealed segments in the middle, runs kept ones across, starts new ones there', () => {
    const before = [segment(0, 0, 0.5), segment(1, 0.5, 0.75), segment(2, 0.75, 1)];
    const after = {
      segments: [segment(0, 0, 0.5), segment(3, 0.5, 0.625, 9000), segment(4, 0.625, 1, 9000)],
      sealedSegments: [1, 2],
      newSegments: [segment(3, 0.5, 0.625, 9000), segment(4, 0.625, 1, 9000)],
    };
    expect(previewRects(before, after, 200, 400)).toEqual([
      { number: 1, kind: 'sealed', x: 0, y: 100, w: 100, h: 100 },
      { number: 2, kind: 'sealed', x: 0, y: 0, w: 100, h: 100 },
      { number: 0, kind: 'kept', x: 0, y: 200, w: 200, h: 200 },
      { number: 3, kind: 'new', x: 100, y: 150, w: 100, h: 50 },
      { number: 4, kind: 'new', x: 100, y: 0, w: 100, h: 150 },
    ]);
  });
});
