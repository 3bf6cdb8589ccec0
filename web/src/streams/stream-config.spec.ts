import type { StreamProperty } from '../api/types';
import {
  createStreamRequest,
  newStreamForm,
  streamConfiguration,
  streamForm,
} from './stream-config';

const stream = (overrides: Partial<StreamProperty>): StreamProperty => ({
  scopeName: 'sales',
  streamName: 'orders',
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
  tags: [],
  rolloverSizeBytes: 0,
  timestampAggregationTimeout: 0,
  ...overrides,
});

describe('the stream form', () => {
  it('sends the defaults of create for a new stream', () => {
    expect(createStreamRequest('orders', newStreamForm())).toEqual({
      body: {
        streamName: 'orders',
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
        streamTags: [],
      },
    });
  });

  it.each<[string, Partial<StreamProperty>]>([
    ['a fixed policy', { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 } }],
    [
      'a rate policy',
      {
        scalingPolicy: {
          type: 'BY_RATE_IN_EVENTS_PER_SEC',
          targetRate: 100,
          scaleFactor: 2,
          minSegments: 3,
        },
      },
    ],
    ['retention by days', { retentionPolicy: { type: 'LIMITED_DAYS', value: 7, maxValue: 30 } }],
    [
      'retention in days, hours and minutes',
      {
        retentionPolicy: {
          type: 'LIMITED_DAYS',
          value: 0,
          timeBasedRetention: { days: 1, hours: 2, minutes: 3 },
          maxValue: 0,
          maxTimeBasedRetention: { days: 4, hours: 0, minutes: 0 },
        },
      },
    ],
    ['retention by size', { retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 1024 } }],
    ['tags holding commas', { tags: ['billing', 'a,b'] }],
    ['rollover and aggregation', { rolloverSizeBytes: 1048576, timestampAggregationTimeout: 500 }],
  ])('sends back what it read: %s', (_, overrides) => {
    const read = stream(overrides);
    const { body } = streamConfiguration(streamForm(read)) as { body: Record<string, unknown> };
    expect(body).toEqual({
      scalingPolicy: read.scalingPolicy,
      ...(read.retentionPolicy ? { retentionPolicy: read.retentionPolicy } : {}),
      streamTags: read.tags,
      ...(read.rolloverSizeBytes ? { rolloverSizeBytes: read.rolloverSizeBytes } : {}),
      ...(read.timestampAggregationTimeout
        ? { timestampAggregationTimeout: read.timestampAggregationTimeout }
        : {}),
    });
  });

  it('drops the rate fields of a fixed policy and the time fields of a size retention', () => {
    const form = {
      ...newStreamForm(),
      targetRate: '100',
      scaleFactor: '2',
      retentionType: 'LIMITED_SIZE_MB' as const,
      retentionValue: '10',
      retentionTime: { days: '1', hours: '', minutes: '' },
    };
    expect(streamConfiguration(form)).toEqual({
      body: {
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
        retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 10 },
        streamTags: [],
      },
    });
  });

  it('names each number field that holds no whole number, by its path in the request', () => {
    const form = {
      ...newStreamForm(),
      minSegments: 'four',
      retentionType: 'LIMITED_DAYS' as const,
      retentionValue: '1.5',
      retentionTime: { days: '', hours: 'x', minutes: '' },
      rolloverSizeBytes: '1e3',
    };
    expect(streamConfiguration(form)).toEqual({
      problems: {
        'scalingPolicy.minSegments': 'must be a whole number',
        'retentionPolicy.value': 'must be a whole number',
        'retentionPolicy.timeBasedRetention.hours': 'must be a whole number',
        rolloverSizeBytes: 'must be a whole number',
      },
    });
  });

  it('sends the numbers the API must judge (zero, negative) as they are', () => {
    expect(streamConfiguration({ ...newStreamForm(), minSegments: ' 0 ' })).toEqual({
      body: { scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 0 }, streamTags: [] },
    });
  });
});
