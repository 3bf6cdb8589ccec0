import fc from 'fast-check';
import type { StreamConfiguration } from '../streams/stream-configuration';
import { countViolations, ProducedStream, streamViolations } from './policy-rules';
import type { CountLimit, ScopePolicy } from './scope-policy';

const configuration = (over: Partial<StreamConfiguration> = {}): StreamConfiguration => ({
  scaling: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
  tags: [],
  rolloverSizeBytes: 0,
  timestampAggregationTimeout: 0,
  ...over,
});
const stream = (name: string, over: Partial<StreamConfiguration> = {}): ProducedStream => ({
  name,
  configuration: configuration(over),
});
const rules = (violations: { rule: string }[]) => violations.map((v) => v.rule);

describe('countViolations', () => {
  it('refuses a change that raises a count above its limit, saying the limit and the count', () => {
    expect(countViolations({ maxStreams: 5 }, { maxStreams: { before: 5, after: 6 } })).toEqual([
      {
        rule: 'maxStreams',
        limit: 5,
        actual: 6,
        detail: 'The change would make 6 user streams in the scope, over the limit of 5.',
      },
    ]);
  });

  it('lets a change reach its limit, lower a count or leave it, even where it is over already', () => {
    const policy: ScopePolicy = { maxActiveSegments: 10 };
    expect(countViolations(policy, { maxActiveSegments: { before: 8, after: 10 } })).toEqual([]);
    expect(countViolations(policy, { maxActiveSegments: { before: 20, after: 15 } })).toEqual([]);
    expect(countViolations(policy, { maxActiveSegments: { before: 20, after: 20 } })).toEqual([]);
    expect(
      rules(countViolations(policy, { maxActiveSegments: { before: 20, after: 21 } })),
    ).toEqual(['maxActiveSegments']);
  });

  it('lists every limit broken, and reads no limit the policy does not set', () => {
    const changes = {
      maxStreams: { before: 0, after: 1 },
      maxSegmentsPerStream: { before: 0, after: 8 },
      maxActiveSegments: { before: 0, after: 8 },
    };
    expect(
      rules(
        countViolations({ maxStreams: 0, maxSegmentsPerStream: 4, maxActiveSegments: 4 }, changes),
      ),
    ).toEqual(['maxStreams', 'maxSegmentsPerStream', 'maxActiveSegments']);
    expect(countViolations({}, changes)).toEqual([]);
    expect(countViolations({ maxStreams: 0 }, {})).toEqual([]);
  });

  it('refuses exactly the changes that raise a count above its limit, for any counts', () => {
    const limits = fc.constantFrom<CountLimit>(
      'maxStreams',
      'maxSegmentsPerStream',
      'maxActiveSegments',
    );
    const count = fc.integer({ min: 0, max: 50 });
    fc.assert(
      fc.property(limits, count, count, count, (rule, limit, before, after) => {
        const refused =
          countViolations({ [rule]: limit }, { [rule]: { before, after } }).length > 0;
        expect(refused).toBe(after > limit && after > before);
      }),
    );
  });
});

describe('streamViolations', () => {
  it('passes any stream where the policy sets no stream rule', () => {
    expect(streamViolations({ maxStreams: 1, owner: 'team' }, stream('any'), 'create')).toEqual([]);
  });

  it('checks the name against the patterns on a create alone', () => {
    const policy: ScopePolicy = { streamNames: ['orders-*', 'audit'] };
    expect(streamViolations(policy, stream('orders-eu'), 'create')).toEqual([]);
    expect(streamViolations(policy, stream('audit'), 'create')).toEqual([]);
    expect(streamViolations(policy, stream('payments'), 'create')).toEqual([
      {
        rule: 'streamNames',
        limit: ['orders-*', 'audit'],
        actual: 'payments',
        detail: "The stream name payments matches none of the scope's name patterns.",
      },
    ]);
    expect(streamViolations(policy, stream('payments'), 'update')).toEqual([]);
  });

  it('allows the scaling types listed alone', () => {
    const policy: ScopePolicy = { scalingTypes: ['BY_RATE_IN_EVENTS_PER_SEC'] };
    const byRate = configuration({
      scaling: {
        type: 'BY_RATE_IN_EVENTS_PER_SEC',
        targetRate: 10,
        scaleFactor: 2,
        minSegments: 1,
      },
    });
    expect(streamViolations(policy, { name: 's', configuration: byRate }, 'update')).toEqual([]);
    expect(streamViolations(policy, stream('s'), 'update')).toEqual([
      expect.objectContaining({
        rule: 'scalingTypes',
        limit: ['BY_RATE_IN_EVENTS_PER_SEC'],
        actual: 'FIXED_NUM_SEGMENTS',
      }),
    ]);
  });

  it('requires a retention policy when asked, and bounds each of its limits in days or MB', () => {
    const required: ScopePolicy = { retention: { required: true } };
    expect(rules(streamViolations(required, stream('s'), 'create'))).toEqual([
      'retention.required',
    ]);
    expect(streamViolations({ retention: { maxDays: 7 } }, stream('s'), 'create')).toEqual([]);

    const days: ScopePolicy = { retention: { maxDays: 7 } };
    // 7 days in minutes, then 7 days and one minute as its maximum.
    const seven = { type: 'LIMITED_DAYS' as const, min: 7 * 1440 };
    expect(streamViolations(days, stream('s', { retention: seven }), 'create')).toEqual([]);
    expect(
      streamViolations(days, stream('s', { retention: { ...seven, max: 7 * 1440 + 1 } }), 'create'),
    ).toEqual([
      expect.objectContaining({
        rule: 'retention.maxDays',
        limit: 7,
        actual: (7 * 1440 + 1) / 1440,
      }),
    ]);
    // A size bound says nothing of a time-based retention, nor a time bound of a size.
    expect(
      streamViolations(
        { retention: { maxSizeMb: 1 } },
        stream('s', { retention: seven }),
        'create',
      ),
    ).toEqual([]);

    const size = { type: 'LIMITED_SIZE_MB' as const, min: 100 };
    expect(
      streamViolations(
        { retention: { maxSizeMb: 100 } },
        stream('s', { retention: size }),
        'create',
      ),
    ).toEqual([]);
    expect(
      streamViolations(
        { retention: { maxSizeMb: 99 } },
        stream('s', { retention: size }),
        'create',
      ),
    ).toEqual([expect.objectContaining({ rule: 'retention.maxSizeMb', limit: 99, actual: 100 })]);
  });

  it('lists one violation per required tag pattern that no tag matches', () => {
    const policy: ScopePolicy = { requiredTags: ['owner:*', 'tier:?', 'pii'] };
    const violations = streamViolations(
      policy,
      stream('s', { tags: ['owner:team-a', 'tier:10'] }),
      'update',
    );
    expect(violations.map((v) => [v.rule, v.limit])).toEqual([
      ['requiredTags', 'tier:?'],
      ['requiredTags', 'pii'],
    ]);
    expect(
      streamViolations(policy, stream('s', { tags: ['pii', 'tier:1', 'owner:'] }), 'update'),
    ).toEqual([]);
  });

  it('lists every rule a stream breaks, not only the first', () => {
    const policy: ScopePolicy = {
      streamNames: ['team-*'],
      scalingTypes: ['BY_RATE_IN_KBYTES_PER_SEC'],
      retention: { required: true },
      requiredTags: ['owner:*'],
    };
    expect(rules(streamViolations(policy, stream('other'), 'create'))).toEqual([
      'streamNames',
      'scalingTypes',
      'retention.required',
      'requiredTags',
    ]);
  });
});
