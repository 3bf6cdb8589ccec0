import { toStreamConfiguration } from './stream-configuration';

describe('toStreamConfiguration', () => {
  it('applies the defaults to an empty request', () => {
    expect(toStreamConfiguration({})).toEqual({
      scaling: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
      tags: [],
      rolloverSizeBytes: 0,
      timestampAggregationTimeout: 0,
    });
  });

  it('keeps every given part', () => {
    expect(
      toStreamConfiguration({
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
        retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 3 },
        streamTags: ['a', 'a'],
        rolloverSizeBytes: 4,
        timestampAggregationTimeout: 5,
      }),
    ).toEqual({
      scaling: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
      retention: { type: 'LIMITED_SIZE_MB', min: 3 },
      tags: ['a'],
      rolloverSizeBytes: 4,
      timestampAggregationTimeout: 5,
    });
  });
});
