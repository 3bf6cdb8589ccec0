import { hiddenGroupsSummary, retentionSummary, scalingSummary } from './stream-summary';

describe('scalingSummary', () => {
  it.each([
    [{ type: 'FIXED_NUM_SEGMENTS' as const, minSegments: 1 }, '1 fixed segment'],
    [{ type: 'FIXED_NUM_SEGMENTS' as const, minSegments: 4 }, '4 fixed segments'],
    [
      {
        type: 'BY_RATE_IN_EVENTS_PER_SEC' as const,
        targetRate: 100,
        scaleFactor: 2,
        minSegments: 3,
      },
      'by 100 events/s ×2, at least 3',
    ],
    [
      { type: 'BY_RATE_IN_KBYTES_PER_SEC' as const, targetRate: 5, scaleFactor: 3 },
      'by 5 KiB/s ×3, at least 1',
    ],
  ])('%j reads %p', (policy, words) => {
    expect(scalingSummary(policy)).toEqual(words);
  });
});

describe('retentionSummary', () => {
  it.each([
    [undefined, 'forever'],
    [{ type: 'LIMITED_DAYS' as const, value: 7 }, 'at least 7 d'],
    [{ type: 'LIMITED_DAYS' as const, value: 7, maxValue: 30 }, 'at least 7 d, at most 30 d'],
    [
      {
        type: 'LIMITED_DAYS' as const,
        value: 0,
        timeBasedRetention: { days: 1, hours: 2, minutes: 0 },
      },
      'at least 1 d 2 h',
    ],
    [{ type: 'LIMITED_SIZE_MB' as const, value: 1024 }, 'at least 1024 MiB'],
  ])('%j reads %p', (policy, words) => {
    expect(retentionSummary(policy)).toEqual(words);
  });
});

describe('hiddenGroupsSummary', () => {
  it.each([
    [2, 0, ''],
    [0, 0, ''],
    [1, 1, 'and 1 other group you may not read'],
    [1, 3, 'and 3 other groups you may not read'],
    [0, 1, '1 group you may not read'],
    [0, 2, '2 groups you may not read'],
  ])('%i shown, %i hidden reads %p', (shown, hidden, words) => {
    expect(hiddenGroupsSummary(shown, hidden)).toBe(words);
  });
});
