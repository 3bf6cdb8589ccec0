import fc from 'fast-check';
import type { CurrentState } from '../apply/current-state';
import type { DesiredReaderGroup, DesiredStream } from '../apply/desired-state';
import { applyPlan } from '../../test/support/plan-execution-model';
import { makePlan } from '../apply/plan';
import { validateApplyDocument } from '../apply/validate-apply-document';
import { renderDesiredStream } from '../apply/desired-stream';
import {
  ExportedScope,
  toApplyDocument,
  toDesiredReaderGroup,
  toDesiredStream,
} from './export-document';

const time = fc.record({ days: fc.nat(3), hours: fc.nat(30), minutes: fc.nat(90) });

const desired: fc.Arbitrary<DesiredStream> = fc.record(
  {
    streamName: fc.constant('orders'),
    scalingPolicy: fc.oneof(
      fc.record({
        type: fc.constant('FIXED_NUM_SEGMENTS' as const),
        minSegments: fc.integer({ min: 1, max: 9 }),
      }),
      fc.record({
        type: fc.constantFrom(
          'BY_RATE_IN_KBYTES_PER_SEC' as const,
          'BY_RATE_IN_EVENTS_PER_SEC' as const,
        ),
        targetRate: fc.integer({ min: 1, max: 1000 }),
        scaleFactor: fc.integer({ min: 1, max: 4 }),
        minSegments: fc.integer({ min: 1, max: 9 }),
      }),
    ),
    retentionPolicy: fc.oneof(
      fc.record(
        {
          type: fc.constant('LIMITED_DAYS' as const),
          value: fc.nat(30),
          timeBasedRetention: time,
          maxValue: fc.integer({ min: 31, max: 60 }),
        },
        { requiredKeys: ['type'] },
      ),
      fc.record({ type: fc.constant('LIMITED_SIZE_MB' as const), value: fc.nat(999) }),
    ),
    streamTags: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }),
    rolloverSizeBytes: fc.nat(),
    timestampAggregationTimeout: fc.nat(),
  },
  { requiredKeys: ['streamName'] },
);

describe('export document', () => {
  it('writes each stream as a create body that renders to the same configuration', () => {
    fc.assert(
      fc.property(desired, (stream) => {
        const view = renderDesiredStream('sales', stream);
        const exported = toDesiredStream({ scopeName: 'sales', streamName: 'orders', ...view });
        expect(renderDesiredStream('sales', exported)).toEqual(view);
        expect(
          toDesiredStream({
            scopeName: 'sales',
            ...renderDesiredStream('sales', exported),
            streamName: 'orders',
          }),
        ).toEqual(exported);
      }),
    );
  });

  it('leaves out what create defaults, and whole days need no time parts', () => {
    expect(
      toDesiredStream({
        scopeName: 's',
        streamName: 't',
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
        retentionPolicy: {
          type: 'LIMITED_DAYS',
          value: 7,
          timeBasedRetention: { days: 7, hours: 0, minutes: 0 },
        },
        tags: [],
        rolloverSizeBytes: 0,
        timestampAggregationTimeout: 0,
      }),
    ).toEqual({
      streamName: 't',
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
      retentionPolicy: { type: 'LIMITED_DAYS', value: 7 },
    });
  });

  it("names a reader group's own streams bare and others with their scope", () => {
    expect(
      toDesiredReaderGroup({
        scopeName: 'sales',
        readerGroupName: 'g',
        streamList: ['sales/orders', 'ops/orders'],
        onlineReaderIds: ['r1'],
      }),
    ).toEqual({ readerGroupName: 'g', streams: ['orders', 'ops/orders'] });
    expect(
      toApplyDocument([{ scopeName: 'empty', policy: {}, streams: [], readerGroups: [] }]),
    ).toEqual({
      scopes: [{ scopeName: 'empty', streams: [], readerGroups: [] }],
    });
    const policy = { maxStreams: 3, retention: { maxDays: 7 } };
    expect(toApplyDocument([{ scopeName: 'set', policy, streams: [], readerGroups: [] }])).toEqual({
      scopes: [{ scopeName: 'set', policy, streams: [], readerGroups: [] }],
    });
  });
});

describe('export, apply on an empty service, export again (model)', () => {
  /** What the service's lists and GETs answer for a state of the planner's model. */
  const exported = (state: CurrentState): ExportedScope[] =>
    state.scopes.map((scope) => ({
      scopeName: scope.scopeName,
      policy: scope.policy.policy,
      streams: scope.streams.map((s) => ({
        scopeName: scope.scopeName,
        streamName: s.streamName,
        ...s.configuration,
      })),
      readerGroups: scope.readerGroups.map((g) => ({
        scopeName: scope.scopeName,
        readerGroupName: g.readerGroupName,
        streamList: g.streams,
        onlineReaderIds: [],
      })),
    }));

  it('gives the same document, and applying it again changes nothing', () => {
    const scope = (scopeName: string) =>
      fc.record({
        scopeName: fc.constant(scopeName),
        policy: fc.constantFrom(undefined, {}, { owner: 'team', maxStreams: 9 }),
        streams: fc.uniqueArray(
          desired.chain((d) =>
            fc.constantFrom('a', 'b', 'c').map((streamName) => ({ ...d, streamName })),
          ),
          { selector: (s) => s.streamName },
        ),
        readerGroups: fc.constant<DesiredReaderGroup[]>([
          { readerGroupName: 'g', streams: ['ops/a'] },
        ]),
      });
    fc.assert(
      fc.property(fc.tuple(scope('sales'), scope('ops')), (scopes) => {
        const empty: CurrentState = { scopes: [] };
        const original = applyPlan(empty, makePlan({ scopes }, empty));
        const document = toApplyDocument(exported(original));
        const rebuilt = applyPlan(empty, makePlan(validateApplyDocument(document), empty));
        expect(toApplyDocument(exported(rebuilt))).toEqual(document);
        expect(
          makePlan(document, original).changes.filter((c) => c.action !== 'unchanged'),
        ).toEqual([]);
      }),
    );
  });
});
