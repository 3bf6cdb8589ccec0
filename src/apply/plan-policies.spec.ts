import type { CurrentState, CurrentStream } from './current-state';
import type { DesiredScope, DesiredStream } from './desired-state';
import { renderDesiredStream } from './desired-stream';
import { makePlan } from './plan';
import type { ScopePolicy } from '../policies/scope-policy';

/** A stream of `segments` fixed segments, as the document lists it. */
const fixed = (streamName: string, segments = 1, more: Partial<DesiredStream> = {}) => ({
  streamName,
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS' as const, minSegments: segments },
  ...more,
});

/** Scope `sales` holding `streams` (active, as listed) under `policy`. */
function holding(policy: ScopePolicy, streams: DesiredStream[], sealed: string[] = []) {
  const current: CurrentStream[] = streams.map((s) => ({
    streamName: s.streamName,
    configuration: renderDesiredStream('sales', s),
    sealed: sealed.includes(s.streamName),
    activeSegments: sealed.includes(s.streamName) ? 0 : (s.scalingPolicy?.minSegments ?? 1),
    version: '"1.1"',
  }));
  const state: CurrentState = {
    scopes: [
      {
        scopeName: 'sales',
        version: '"1.1"',
        policy: { policy, version: '1' },
        streams: current,
        readerGroups: [],
      },
    ],
  };
  return state;
}

const violationsOf = (scope: Omit<DesiredScope, 'scopeName'>, state: CurrentState, prune = false) =>
  makePlan({ scopes: [{ scopeName: 'sales', ...scope }], prune }, state).violations.map(
    ({ rule, actual, resource }) => ({ rule, actual, resource }),
  );

const at = (stream: string) => `prn::/scope:sales/stream:${stream}`;

describe('makePlan: the violations of scope policies', () => {
  it('judges every create and update by the stream rules, naming each resource', () => {
    const state = holding({ streamNames: ['o-*'], requiredTags: ['owner:*'] }, [
      fixed('o-1', 1, { streamTags: ['owner:x'] }),
    ]);
    expect(
      violationsOf(
        { streams: [fixed('o-1'), fixed('bad', 1, { streamTags: ['owner:y'] })] },
        state,
      ),
    ).toEqual([
      // The update of o-1 drops its tag; streamNames is a rule of creates alone.
      { rule: 'requiredTags', actual: [], resource: at('o-1') },
      { rule: 'streamNames', actual: 'bad', resource: at('bad') },
    ]);
  });

  it('judges by the policy the document sets, else the stored one; {} judges nothing', () => {
    const state = holding({ maxStreams: 0 }, []);
    expect(violationsOf({ streams: [fixed('a')] }, state)).toEqual([
      { rule: 'maxStreams', actual: 1, resource: at('a') },
    ]);
    expect(violationsOf({ streams: [fixed('a')], policy: {} }, state)).toEqual([]);
    expect(
      violationsOf({ streams: [fixed('a', 3)], policy: { maxSegmentsPerStream: 2 } }, state),
    ).toEqual([{ rule: 'maxSegmentsPerStream', actual: 3, resource: at('a') }]);
  });

  it('counts all creates of the scope together, naming those past the limit', () => {
    const state = holding({ maxStreams: 2 }, [fixed('a')]);
    expect(
      violationsOf({ streams: [fixed('a'), fixed('b'), fixed('c'), fixed('d')] }, state),
    ).toEqual([
      { rule: 'maxStreams', actual: 3, resource: at('c') },
      { rule: 'maxStreams', actual: 4, resource: at('d') },
    ]);
  });

  it('counts the streams prune deletes as gone, sealed ones too', () => {
    const state = holding(
      { maxStreams: 2, maxActiveSegments: 4 },
      [fixed('a', 2), fixed('b', 2), fixed('s')],
      ['s'],
    );
    expect(violationsOf({ streams: [fixed('c', 2), fixed('d', 2)] }, state, true)).toEqual([]);
    expect(violationsOf({ streams: [fixed('a', 2), fixed('c', 2)] }, state, true)).toEqual([]);
    expect(violationsOf({ streams: [fixed('a', 2), fixed('c', 3)] }, state, true)).toEqual([
      { rule: 'maxActiveSegments', actual: 5, resource: at('c') },
    ]);
    // Without prune the same creates raise both counts.
    expect(violationsOf({ streams: [fixed('c', 2)] }, state)).toEqual([
      { rule: 'maxStreams', actual: 4, resource: at('c') },
      { rule: 'maxActiveSegments', actual: 6, resource: at('c') },
    ]);
  });

  it('refuses only what raises a count: a plan that lowers one over its limit passes', () => {
    const state = holding({ maxStreams: 1, maxActiveSegments: 2 }, [fixed('a', 3), fixed('b', 1)]);
    // Over both limits already: b goes, a shrinks; nothing raises a count.
    expect(violationsOf({ streams: [fixed('a', 2)] }, state, true)).toEqual([]);
    // An update that lowers its segments makes room for one that raises them, whatever the order.
    const room = holding({ maxActiveSegments: 4 }, [fixed('a', 3), fixed('b', 1)]);
    expect(violationsOf({ streams: [fixed('b', 2), fixed('a', 2)] }, room)).toEqual([]);
    expect(violationsOf({ streams: [fixed('b', 3), fixed('a', 2)] }, room)).toEqual([
      { rule: 'maxActiveSegments', actual: 5, resource: at('b') },
    ]);
  });

  it('judges a scope the document creates by the policy it sets', () => {
    const plan = makePlan(
      {
        scopes: [
          { scopeName: 'new', policy: { maxStreams: 1 }, streams: [fixed('a'), fixed('b')] },
        ],
      },
      { scopes: [] },
    );
    expect(plan.violations).toEqual([
      expect.objectContaining({
        rule: 'maxStreams',
        limit: 1,
        actual: 2,
        resource: 'prn::/scope:new/stream:b',
      }),
    ]);
  });
});
