import fc from 'fast-check';
import type {
  ApplyDocument,
  DesiredReaderGroup,
  DesiredScope,
  DesiredStream,
} from './desired-state';
import type { CurrentState } from './current-state';
import { applyPlan, PlanConflictError } from '../../test/support/plan-execution-model';
import { renderDesiredStream } from './desired-stream';
import { makePlan } from './plan';
import type { ScopePolicy } from '../policies/scope-policy';

const EMPTY: CurrentState = { scopes: [] };

const stream: fc.Arbitrary<DesiredStream> = fc.record(
  {
    streamName: fc.constantFrom('orders', 'refunds', 'clicks', 'views', 'b.2'),
    scalingPolicy: fc.oneof(
      fc.record({
        type: fc.constant('FIXED_NUM_SEGMENTS' as const),
        minSegments: fc.integer({ min: 1, max: 4 }),
      }),
      fc.record({
        type: fc.constant('BY_RATE_IN_EVENTS_PER_SEC' as const),
        targetRate: fc.integer({ min: 1, max: 100 }),
        scaleFactor: fc.integer({ min: 1, max: 3 }),
        minSegments: fc.integer({ min: 1, max: 3 }),
      }),
    ),
    retentionPolicy: fc.oneof(
      fc.record({
        type: fc.constant('LIMITED_DAYS' as const),
        value: fc.integer({ min: 1, max: 9 }),
      }),
      fc.record({
        type: fc.constant('LIMITED_SIZE_MB' as const),
        value: fc.integer({ min: 0, max: 999 }),
      }),
    ),
    streamTags: fc.subarray(['billing', 'eu', 'pii']),
    rolloverSizeBytes: fc.integer({ min: 0, max: 3 }),
  },
  { requiredKeys: ['streamName'] },
);

/** Policies that no stream of `stream` breaks: the planner's violations are tested on their own. */
const policy: fc.Arbitrary<ScopePolicy> = fc.record(
  {
    owner: fc.constantFrom('team-a', 'team-b'),
    maxStreams: fc.constantFrom(10, 20),
    retention: fc.record({ maxDays: fc.constantFrom(30, 60) }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);

function scope(name: string): fc.Arbitrary<DesiredScope> {
  return fc
    .uniqueArray(stream, { selector: (s) => s.streamName, maxLength: 4 })
    .chain((streams) => {
      const names = streams.map((s) => s.streamName);
      const group = (): fc.Arbitrary<DesiredReaderGroup> =>
        fc.record({
          readerGroupName: fc.constantFrom('billing', 'audit', 'replay'),
          streams: fc.subarray(names, { minLength: 1 }),
        });
      return fc.record({
        scopeName: fc.constant(name),
        policy: fc.option(policy, { nil: undefined }),
        streams: fc.constant(streams),
        readerGroups:
          names.length === 0
            ? fc.constant([])
            : fc.uniqueArray(group(), { selector: (g) => g.readerGroupName, maxLength: 2 }),
      });
    });
}

const document: fc.Arbitrary<ApplyDocument> = fc
  .subarray(['sales', 'ops', 'web'])
  .chain((names) => fc.record({ scopes: fc.tuple(...names.map(scope)), prune: fc.boolean() }));

/** A state the service could hold: some document applied, then some streams sealed or edited. */
const state: fc.Arbitrary<CurrentState> = fc
  .tuple(document, fc.infiniteStream(fc.tuple(fc.boolean(), fc.nat(3))))
  .map(([earlier, marks]) => {
    const made = applyPlan(EMPTY, makePlan(earlier, EMPTY));
    const it = marks[Symbol.iterator]();
    for (const s of made.scopes) {
      s.streams = s.streams.map((t) => {
        const [sealed, edits] = it.next().value as [boolean, number];
        return { ...t, sealed: sealed && edits === 0, version: t.version + edits };
      });
    }
    return made;
  });

const changed = (plan: ReturnType<typeof makePlan>): number =>
  plan.summary.create + plan.summary.update + plan.summary.delete;

describe('makePlan and applyPlan (properties)', () => {
  it('applying a plan gives the desired state, and planning again changes nothing', () => {
    fc.assert(
      fc.property(document, state, (doc, before) => {
        const plan = makePlan(doc, before);
        fc.pre(plan.conflicts.length === 0);
        const after = applyPlan(before, plan);
        for (const desired of doc.scopes) {
          const now = after.scopes.find((s) => s.scopeName === desired.scopeName)!;
          expect(now).toBeDefined();
          for (const t of desired.streams ?? []) {
            const got = now.streams.find((s) => s.streamName === t.streamName);
            expect(got?.configuration).toEqual(renderDesiredStream(desired.scopeName, t));
          }
          for (const g of desired.readerGroups ?? []) {
            const got = now.readerGroups.find((r) => r.readerGroupName === g.readerGroupName);
            expect(new Set(got?.streams)).toEqual(
              new Set(g.streams.map((t) => `${desired.scopeName}/${t}`)),
            );
          }
          if (desired.policy) expect(now.policy.policy).toEqual(desired.policy);
          if (doc.prune) {
            expect(now.streams.map((s) => s.streamName).sort()).toEqual(
              (desired.streams ?? []).map((s) => s.streamName).sort(),
            );
            expect(now.readerGroups.map((g) => g.readerGroupName).sort()).toEqual(
              (desired.readerGroups ?? []).map((g) => g.readerGroupName).sort(),
            );
          }
        }
        const again = makePlan(doc, after);
        expect(again.conflicts).toEqual([]);
        expect(again.changes.filter((c) => c.action !== 'unchanged')).toEqual([]);
        // What was deleted is gone from the plan, but a cleared policy is still planned (`{}`).
        expect(again.summary.unchanged).toBe(
          plan.changes.filter((c) => c.action !== 'delete' || c.kind === 'scopePolicy').length,
        );
        if (changed(plan) === 0) expect(again.planVersion).toBe(plan.planVersion);
        else expect(again.planVersion).not.toBe(plan.planVersion);
      }),
    );
  });

  it('never touches a scope the document does not list, prune or not', () => {
    fc.assert(
      fc.property(document, state, (doc, before) => {
        const plan = makePlan(doc, before);
        fc.pre(plan.conflicts.length === 0);
        const listed = new Set(doc.scopes.map((s) => s.scopeName));
        for (const change of plan.changes) expect([...listed]).toContain(change.target.scopeName);
        const after = applyPlan(before, plan);
        for (const s of before.scopes.filter((x) => !listed.has(x.scopeName))) {
          expect(after.scopes.find((x) => x.scopeName === s.scopeName)).toEqual(s);
        }
      }),
    );
  });

  it('counts every change once in the summary and names one resource per change', () => {
    fc.assert(
      fc.property(document, state, (doc, before) => {
        const plan = makePlan(doc, before);
        const total = Object.values(plan.summary).reduce((a, b) => a + b, 0);
        expect(total).toBe(plan.changes.length);
        const resources = plan.changes.map((c) => `${c.kind} ${c.resource}`);
        expect(new Set(resources).size).toBe(resources.length);
        for (const c of plan.changes) {
          expect(c.resource).toMatch(/^prn::\/scope:[^/]+(\/(stream|reader-group):[^/]+)?$/);
          if (c.kind === 'scopePolicy') expect(c.resource).not.toContain('/stream');
          if (c.action === 'update') expect(c.diff).toBeDefined();
          else expect(c.diff).toBeUndefined();
        }
      }),
    );
  });

  it('refuses exactly the updates of sealed streams and the groups reading other streams', () => {
    fc.assert(
      fc.property(document, state, (doc, before) => {
        const plan = makePlan(doc, before);
        const sealed = new Set(
          before.scopes.flatMap((s) =>
            s.streams
              .filter((t) => t.sealed)
              .map((t) => `prn::/scope:${s.scopeName}/stream:${t.streamName}`),
          ),
        );
        const expected = plan.changes
          .filter(
            (c) => c.action === 'update' && (c.kind === 'readerGroup' || sealed.has(c.resource)),
          )
          .map((c) => c.resource);
        expect(plan.conflicts.map((c) => c.resource)).toEqual(expected);
        if (expected.length > 0) expect(() => applyPlan(before, plan)).toThrow(PlanConflictError);
      }),
    );
  });

  it('gives another planVersion when anything it read changes, the same otherwise', () => {
    fc.assert(
      fc.property(document, state, fc.nat(), (doc, before, pick) => {
        const plan = makePlan(doc, before);
        expect(makePlan(doc, structuredClone(before)).planVersion).toBe(plan.planVersion);
        expect(plan.planVersion).toMatch(/^"[A-Za-z0-9_-]+"$/);
        const listed = new Set(doc.scopes.map((s) => s.scopeName));
        const read = before.scopes.filter((s) => listed.has(s.scopeName) && s.streams.length > 0);
        fc.pre(read.length > 0);
        const edited = structuredClone(before);
        const s = edited.scopes.find((x) => x.scopeName === read[pick % read.length].scopeName)!;
        s.streams[pick % s.streams.length].version += 1;
        expect(makePlan(doc, edited).planVersion).not.toBe(plan.planVersion);
      }),
    );
  });
});

describe('makePlan (examples)', () => {
  const orders: DesiredStream = {
    streamName: 'orders',
    scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 },
    retentionPolicy: { type: 'LIMITED_DAYS', value: 7 },
    streamTags: ['billing'],
  };
  const doc = (streams: DesiredStream[], extra: Partial<DesiredScope> = {}, prune = false) => ({
    scopes: [{ scopeName: 'sales', streams, ...extra }],
    prune,
  });
  const created = applyPlan(EMPTY, makePlan(doc([orders, { streamName: 'plain' }]), EMPTY));

  it('creates the scope and its streams in ACL form, and counts them', () => {
    const plan = makePlan(doc([orders]), EMPTY);
    expect(plan.changes.map(({ action, kind, resource }) => ({ action, kind, resource }))).toEqual([
      { action: 'create', kind: 'scope', resource: 'prn::/scope:sales' },
      { action: 'create', kind: 'stream', resource: 'prn::/scope:sales/stream:orders' },
    ]);
    expect(plan.summary).toEqual({ create: 2, update: 0, delete: 0, unchanged: 0 });
    expect(plan.conflicts).toEqual([]);
  });

  it('applies the defaults of create, so a stream listed with none equals a default stream', () => {
    const plain = created.scopes[0].streams.find((s) => s.streamName === 'plain')!;
    expect(plain.configuration).toEqual({
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
      tags: [],
      rolloverSizeBytes: 0,
      timestampAggregationTimeout: 0,
    });
    const plan = makePlan(doc([{ streamName: 'plain', streamTags: [] }]), created);
    expect(plan.changes[1].action).toBe('unchanged');
  });

  it('treats tags as a set and lists each changed field of an update with its path', () => {
    const same = makePlan(doc([{ ...orders, streamTags: ['billing', 'billing'] }]), created);
    expect(same.changes[1].action).toBe('unchanged');
    const plan = makePlan(
      doc([
        {
          ...orders,
          scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 6 },
          retentionPolicy: undefined,
          streamTags: ['eu', 'billing'],
        },
      ]),
      created,
    );
    expect(plan.changes[1]).toMatchObject({
      action: 'update',
      diff: [
        { path: 'scalingPolicy.minSegments', before: 4, after: 6 },
        { path: 'tags', before: ['billing'], after: ['eu', 'billing'] },
        {
          path: 'retentionPolicy',
          before: {
            type: 'LIMITED_DAYS',
            value: 7,
            timeBasedRetention: { days: 7, hours: 0, minutes: 0 },
          },
        },
      ],
    });
    expect(plan.changes[1].diff![2]).not.toHaveProperty('after');
  });

  it('prunes unlisted streams and groups of listed scopes only, keeping internal streams', () => {
    const withGroup = applyPlan(
      created,
      makePlan(
        {
          scopes: [
            {
              scopeName: 'sales',
              readerGroups: [{ readerGroupName: 'billing', streams: ['orders'] }],
            },
            { scopeName: 'ops', streams: [orders] },
          ],
        },
        created,
      ),
    );
    withGroup.scopes[0].streams.push({
      ...withGroup.scopes[0].streams[0],
      streamName: '_MARKorders',
    });
    const plan = makePlan(
      { scopes: [{ scopeName: 'sales', streams: [orders] }], prune: true },
      withGroup,
    );
    expect(plan.changes.filter((c) => c.action === 'delete').map((c) => c.resource)).toEqual([
      'prn::/scope:sales/reader-group:billing',
      'prn::/scope:sales/stream:plain',
    ]);
    expect(
      makePlan({ scopes: [{ scopeName: 'sales', streams: [orders] }] }, withGroup).summary.delete,
    ).toBe(0);
  });

  it('reports a group that reads other streams and an update of a sealed stream as conflicts', () => {
    const grouped = applyPlan(
      created,
      makePlan(doc([], { readerGroups: [{ readerGroupName: 'g', streams: ['orders'] }] }), created),
    );
    grouped.scopes[0].streams.find((s) => s.streamName === 'plain')!.sealed = true;
    const plan = makePlan(
      doc([{ streamName: 'plain', streamTags: ['x'] }], {
        readerGroups: [{ readerGroupName: 'g', streams: ['orders', 'plain'] }],
      }),
      grouped,
    );
    expect(plan.conflicts).toEqual([
      { resource: 'prn::/scope:sales/stream:plain', message: 'Stream sales/plain is sealed' },
      {
        resource: 'prn::/scope:sales/reader-group:g',
        message: expect.stringContaining('sales/orders'),
      },
    ]);
    const sealedButSame = makePlan(doc([{ streamName: 'plain' }]), grouped);
    expect(sealedButSame.conflicts).toEqual([]);
  });

  it('names in its words only the streams of a group it is told it may show, counting the others', () => {
    const group = (streams: string[]) => ({ readerGroupName: 'g', streams });
    const grouped = structuredClone(created);
    grouped.scopes[0].readerGroups.push({
      readerGroupName: 'g',
      streams: ['sales/orders', 'hidden/a', 'hidden/b'],
      version: '"1.1"',
    });
    const words = (streams: string[], shown?: (name: string) => boolean) =>
      makePlan(doc([], { readerGroups: [group(streams)] }), grouped, shown).conflicts.map(
        (c) => c.message,
      );
    const notHidden = (name: string) => !name.startsWith('hidden/');
    expect(words(['orders'])).toEqual([
      'Reader group sales/g reads other streams (sales/orders, hidden/a, hidden/b)',
    ]);
    expect(words(['orders'], notHidden)).toEqual([
      'Reader group sales/g reads other streams (sales/orders and 2 streams not shown)',
    ]);
    expect(words(['plain'], (name) => name === 'hidden/a')).toEqual([
      'Reader group sales/g reads other streams (hidden/a and 2 streams not shown)',
    ]);
    expect(words(['plain'], () => false)).toEqual([
      'Reader group sales/g reads other streams (3 streams not shown)',
    ]);
    // What is shown changes the words only, never the plan.
    const plan = (shown?: (name: string) => boolean) =>
      makePlan(doc([], { readerGroups: [group(['orders'])] }), grouped, shown);
    expect({ ...plan(notHidden), conflicts: [] }).toEqual({ ...plan(), conflicts: [] });
  });

  it('reads a missing scope as absent, and a stream appearing in a listed scope changes planVersion', () => {
    const listed = { scopes: [{ scopeName: 'sales' }] };
    expect(makePlan(listed, EMPTY).planVersion).not.toBe(makePlan(listed, created).planVersion);
    const more = structuredClone(created);
    more.scopes[0].streams.push({ ...more.scopes[0].streams[0], streamName: 'new' });
    expect(makePlan(listed, more).planVersion).not.toBe(makePlan(listed, created).planVersion);
    const elsewhere = applyPlan(
      created,
      makePlan({ scopes: [{ scopeName: 'ops', streams: [orders] }] }, created),
    );
    expect(makePlan(listed, elsewhere).planVersion).toBe(makePlan(listed, created).planVersion);
  });
});

describe('makePlan: scope policies (examples)', () => {
  const scoped = (policy?: ScopePolicy, prune = false): ApplyDocument => ({
    scopes: [{ scopeName: 'sales', policy }],
    prune,
  });
  const withPolicy = (policy: ScopePolicy, version = '3'): CurrentState => ({
    scopes: [
      {
        scopeName: 'sales',
        version: '"1.1"',
        policy: { policy, version },
        streams: [],
        readerGroups: [],
      },
    ],
  });
  const policyChange = (document: ApplyDocument, state: CurrentState) =>
    makePlan(document, state).changes.filter((c) => c.kind === 'scopePolicy');

  it('lists the policy right after its scope: create, update by path, delete for {}, or unchanged', () => {
    const created = makePlan(scoped({ maxStreams: 3 }), EMPTY);
    expect(
      created.changes.map(({ action, kind, resource }) => ({ action, kind, resource })),
    ).toEqual([
      { action: 'create', kind: 'scope', resource: 'prn::/scope:sales' },
      { action: 'create', kind: 'scopePolicy', resource: 'prn::/scope:sales' },
    ]);
    const stored = withPolicy({ maxStreams: 3, retention: { maxDays: 7 }, owner: 'a' });
    expect(
      policyChange(scoped({ maxStreams: 4, retention: { maxDays: 9 }, owner: 'a' }), stored),
    ).toEqual([
      expect.objectContaining({
        action: 'update',
        diff: [
          { path: 'maxStreams', before: 3, after: 4 },
          { path: 'retention.maxDays', before: 7, after: 9 },
        ],
      }),
    ]);
    expect(policyChange(scoped({}), stored)).toMatchObject([{ action: 'delete' }]);
    expect(policyChange(scoped({}), stored)[0]).not.toHaveProperty('diff');
    expect(
      policyChange(scoped({ owner: 'a', retention: { maxDays: 7 }, maxStreams: 3 }), stored),
    ).toMatchObject([{ action: 'unchanged' }]);
    // `{}` over no policy changes nothing; a cleared policy (a row holding `{}`) is none.
    expect(policyChange(scoped({}), EMPTY)).toMatchObject([{ action: 'unchanged' }]);
    expect(policyChange(scoped({ owner: 'b' }), withPolicy({}))).toMatchObject([
      { action: 'create' },
    ]);
  });

  it('leaves the stored policy alone when the document sets none, prune or not', () => {
    const stored = withPolicy({ maxStreams: 3 });
    expect(policyChange(scoped(undefined, true), stored)).toEqual([]);
  });

  it("covers the stored policy's version in planVersion, set by the document or not", () => {
    for (const document of [scoped({ maxStreams: 3 }), scoped(undefined)]) {
      expect(makePlan(document, withPolicy({ maxStreams: 3 }, '3')).planVersion).not.toBe(
        makePlan(document, withPolicy({ maxStreams: 3 }, '4')).planVersion,
      );
    }
  });
});
