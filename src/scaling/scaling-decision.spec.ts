import { needsRescale } from './scaling-decision';

describe('needsRescale', () => {
  it('rescales a fixed policy whenever the count differs', () => {
    expect(needsRescale({ type: 'FIXED_NUM_SEGMENTS', minSegments: 3 }, 3)).toBe(false);
    expect(needsRescale({ type: 'FIXED_NUM_SEGMENTS', minSegments: 4 }, 3)).toBe(true);
    expect(needsRescale({ type: 'FIXED_NUM_SEGMENTS', minSegments: 2 }, 3)).toBe(true);
  });

  it('rescales a rate policy only when its minimum rises above the count', () => {
    const rate = { type: 'BY_RATE_IN_EVENTS_PER_SEC' as const, targetRate: 10, scaleFactor: 2 };
    expect(needsRescale({ ...rate, minSegments: 4 }, 3)).toBe(true);
    expect(needsRescale({ ...rate, minSegments: 3 }, 3)).toBe(false);
    expect(needsRescale({ ...rate, minSegments: 1 }, 3)).toBe(false);
  });
});
