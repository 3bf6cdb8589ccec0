import fc from 'fast-check';
import type { StreamConfiguration } from '../streams/stream-configuration';
import { complianceOf, MAX_LISTED_STREAMS, type StandingStream } from './compliance';

const standing = (
  name: string,
  activeSegments: number,
  over: Partial<StreamConfiguration> = {},
): StandingStream => ({
  name,
  activeSegments,
  configuration: {
    scaling: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
    tags: [],
    rolloverSizeBytes: 0,
    timestampAggregationTimeout: 0,
    ...over,
  },
});

describe('complianceOf', () => {
  it('counts the streams and their active segments, and finds nothing wrong without a policy', () => {
    expect(complianceOf({}, [standing('a', 3), standing('b', 0), standing('c', 2)])).toEqual({
      streams: 3,
      activeSegments: 5,
      limitsExceeded: [],
      nonCompliantCount: 0,
      nonCompliant: [],
    });
  });

  it('names the scope-wide limits exceeded now, and not those merely reached', () => {
    const streams = [standing('a', 4), standing('b', 4)];
    expect(complianceOf({ maxStreams: 1, maxActiveSegments: 7 }, streams).limitsExceeded).toEqual([
      'maxStreams',
      'maxActiveSegments',
    ]);
    expect(complianceOf({ maxStreams: 2, maxActiveSegments: 8 }, streams).limitsExceeded).toEqual(
      [],
    );
  });

  it("lists each stream that breaks a stream rule or has too many segments, with every one it breaks, but not a rule of creates' names", () => {
    const policy = {
      streamNames: ['orders-*'],
      scalingTypes: ['FIXED_NUM_SEGMENTS' as const],
      requiredTags: ['owner:*'],
      maxSegmentsPerStream: 2,
    };
    const report = complianceOf(policy, [
      standing('clicks', 1, { tags: ['owner:web'] }),
      standing('orders', 3, {
        scaling: {
          type: 'BY_RATE_IN_EVENTS_PER_SEC',
          minSegments: 3,
          targetRate: 10,
          scaleFactor: 2,
        },
      }),
      standing('payments', 2, { tags: [] }),
    ]);
    expect(report.nonCompliantCount).toBe(2);
    expect(
      report.nonCompliant.map((s) => ({
        name: s.streamName,
        rules: s.violations.map((v) => v.rule),
      })),
    ).toEqual([
      { name: 'orders', rules: ['scalingTypes', 'requiredTags', 'maxSegmentsPerStream'] },
      { name: 'payments', rules: ['requiredTags'] },
    ]);
    expect(report.nonCompliant[0].violations[2]).toEqual({
      rule: 'maxSegmentsPerStream',
      limit: 2,
      actual: 3,
      detail: 'The stream has 3 active segments, over the limit of 2.',
    });
  });

  it('lists at most the first hundred non-compliant streams in the order given, and counts them all', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 300 }), (breaks) => {
        const streams = breaks.map((broken, i) =>
          standing(`s${String(i).padStart(3, '0')}`, broken ? 2 : 1),
        );
        const report = complianceOf({ maxSegmentsPerStream: 1 }, streams);
        const broken = streams.filter((s) => s.activeSegments === 2).map((s) => s.name);
        expect(report.nonCompliantCount).toBe(broken.length);
        expect(report.nonCompliant.map((s) => s.streamName)).toEqual(
          broken.slice(0, MAX_LISTED_STREAMS),
        );
        expect(report.activeSegments).toBe(streams.length + broken.length);
      }),
    );
  });
});
