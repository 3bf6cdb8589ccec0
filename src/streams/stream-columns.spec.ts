import { configurationColumns, streamOf } from './stream-columns';
import type { StreamConfiguration } from './stream-configuration';

const roundTrip = (configuration: StreamConfiguration) =>
  streamOf({
    scopeName: 's',
    name: 't',
    state: 'SEALED',
    ...configurationColumns(configuration),
  });

describe('stream columns', () => {
  it.each<[string, StreamConfiguration]>([
    [
      'a rate policy with a time limit',
      {
        scaling: {
          type: 'BY_RATE_IN_KBYTES_PER_SEC',
          targetRate: 5,
          scaleFactor: 2,
          minSegments: 3,
        },
        retention: { type: 'LIMITED_DAYS', min: 60, max: 120 },
        tags: ['a'],
        rolloverSizeBytes: 9,
        timestampAggregationTimeout: 8,
      },
    ],
    [
      'a fixed policy without retention',
      {
        scaling: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
        tags: [],
        rolloverSizeBytes: 0,
        timestampAggregationTimeout: 0,
      },
    ],
    [
      'a size limit without maximum',
      {
        scaling: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 },
        retention: { type: 'LIMITED_SIZE_MB', min: 10 },
        tags: ['x', 'y'],
        rolloverSizeBytes: 1,
        timestampAggregationTimeout: 2,
      },
    ],
  ])('read back what they store: %s', (_, configuration) => {
    expect(roundTrip(configuration)).toEqual({
      scopeName: 's',
      name: 't',
      state: 'SEALED',
      configuration,
    });
  });
});
