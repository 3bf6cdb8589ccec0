import { loadScaleWords, scalesByLoad } from './load-scale-words';

describe('load scale words', () => {
  it('names the segment, then the rule that scaled it', () => {
    expect(
      loadScaleWords({
        at: 0,
        principal: 'anonymous',
        segment: 3,
        direction: 'up',
        because: 'two-minute rate 620.5 > 5 x 100: split into 3',
        epoch: 4,
        sealedSegments: [3],
        newSegments: [],
      }),
    ).toBe('segment 3: two-minute rate 620.5 > 5 x 100: split into 3');
  });

  it('tells the policies that reports of load scale', () => {
    expect(scalesByLoad({ type: 'FIXED_NUM_SEGMENTS', minSegments: 1 })).toBe(false);
    expect(scalesByLoad({ type: 'BY_RATE_IN_EVENTS_PER_SEC', minSegments: 1 })).toBe(true);
    expect(scalesByLoad({ type: 'BY_RATE_IN_KBYTES_PER_SEC', minSegments: 1 })).toBe(true);
  });
});
