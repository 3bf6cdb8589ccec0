import { InvalidRequestError } from '../common/domain-error';
import { MAX_DOCUMENT_RESOURCES } from './desired-state';
import { validateApplyDocument } from './validate-apply-document';

function refusalOf(body: unknown): InvalidRequestError {
  try {
    validateApplyDocument(body);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error('the document was accepted');
}

const violationsOf = (body: unknown): string[] => refusalOf(body).violations.map((v) => v.field);

describe('validateApplyDocument', () => {
  it('accepts the example of the specification and keeps its fields', () => {
    const doc = validateApplyDocument({
      scopes: [
        {
          scopeName: 'sales',
          streams: [
            {
              streamName: 'orders',
              scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 },
              retentionPolicy: { type: 'LIMITED_DAYS', value: 7 },
              streamTags: ['billing'],
            },
          ],
          readerGroups: [{ readerGroupName: 'billing', streams: ['orders'] }],
        },
      ],
      prune: false,
    });
    expect(doc.scopes[0].streams![0].scalingPolicy).toEqual({
      type: 'FIXED_NUM_SEGMENTS',
      minSegments: 4,
    });
    expect(doc.scopes[0].readerGroups![0].streams).toEqual(['orders']);
    expect(doc.prune).toBe(false);
  });

  it('names list elements that are not objects instead of reading fields of them', () => {
    expect(
      violationsOf({
        scopes: [
          null,
          [],
          { scopeName: 'a', streams: [5, [], { streamName: 'x' }], readerGroups: [null, []] },
        ],
      }),
    ).toEqual([
      'scopes[1]',
      'scopes[0]',
      'scopes[2].streams[1]',
      'scopes[2].streams[0]',
      'scopes[2].readerGroups[1]',
      'scopes[2].readerGroups[0]',
    ]);
  });

  it('names every invalid path at once, from the field rules and from their meaning', () => {
    const fields = violationsOf({
      scopes: [
        {
          scopeName: 'sales',
          streams: [
            { streamName: 'a' },
            { streamName: 'b', scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 0 } },
            { streamName: 'c', scalingPolicy: { type: 'NOPE' } },
            {
              streamName: 'd',
              retentionPolicy: { type: 'LIMITED_SIZE_MB' },
              rolloverSizeBytes: -1,
            },
            { streamName: 'e', scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 'x' } },
            { streamName: '_x', streamTags: ['ok'] },
            {
              streamName: 'f',
              scalingPolicy: { type: 'BY_RATE_IN_EVENTS_PER_SEC', targetRate: 'x', minSegments: 0 },
              retentionPolicy: { type: 'LIMITED_DAYS', value: 3, maxValue: 1 },
            },
          ],
          readerGroups: [
            { readerGroupName: 'g', streams: ['a/b/c'] },
            { readerGroupName: 'h', streams: [] },
          ],
        },
        { scopeName: 'bad name!' },
      ],
      prune: 'yes',
    });
    expect([...new Set(fields)].sort()).toEqual(
      [
        'prune',
        'scopes[0].readerGroups[0].streams[0]',
        'scopes[0].readerGroups[1].streams',
        'scopes[0].streams[1].scalingPolicy.minSegments',
        'scopes[0].streams[2].scalingPolicy.minSegments',
        'scopes[0].streams[2].scalingPolicy.type',
        'scopes[0].streams[3].rolloverSizeBytes',
        'scopes[0].streams[3].retentionPolicy.value',
        'scopes[0].streams[4].scalingPolicy.minSegments',
        'scopes[0].streams[5].streamName',
        'scopes[0].streams[6].retentionPolicy.maxValue',
        'scopes[0].streams[6].scalingPolicy.minSegments',
        'scopes[0].streams[6].scalingPolicy.scaleFactor',
        'scopes[0].streams[6].scalingPolicy.targetRate',
        'scopes[1].scopeName',
      ].sort(),
    );
  });

  it('names the tag of a stream that is otherwise well formed', () => {
    expect(
      violationsOf({
        scopes: [{ scopeName: 's', streams: [{ streamName: 't', streamTags: ['ok', ''] }] }],
      }),
    ).toEqual(['scopes[0].streams[0].streamTags[1]']);
  });

  it('refuses duplicate scopes, streams and reader groups, naming the later one', () => {
    const fields = violationsOf({
      scopes: [
        {
          scopeName: 's',
          streams: [{ streamName: 't' }, { streamName: 'u' }, { streamName: 't' }],
          readerGroups: [
            { readerGroupName: 'g', streams: ['t'] },
            { readerGroupName: 'g', streams: ['u'] },
          ],
        },
        { scopeName: 's' },
      ],
    });
    expect(fields).toEqual([
      'scopes[1].scopeName',
      'scopes[0].streams[2].streamName',
      'scopes[0].readerGroups[1].readerGroupName',
    ]);
  });

  it('refuses what is not a document: no object, no scopes, scopes of the wrong type', () => {
    expect(violationsOf([])).toEqual(['body']);
    expect(violationsOf('scopes')).toEqual(['body']);
    expect(violationsOf(null)).toEqual(['body']);
    expect(violationsOf({})).toEqual(['scopes']);
    expect(new Set(violationsOf({ scopes: 'sales' }))).toEqual(new Set(['scopes']));
    expect(violationsOf({ scopes: ['sales'] })).toContain('scopes[0]');
    expect(violationsOf({ scopes: [{ scopeName: 's', streams: {} }] })).toContain(
      'scopes[0].streams',
    );
  });

  it(`refuses more than ${MAX_DOCUMENT_RESOURCES} scopes, streams and reader groups in all`, () => {
    const streams = (n: number) => Array.from({ length: n }, (_, i) => ({ streamName: `t${i}` }));
    const groups = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ readerGroupName: `g${i}`, streams: ['t0'] }));
    // 2 scopes, 9,000 streams and 998 groups: 10,000 resources.
    expect(() =>
      validateApplyDocument({
        scopes: [
          { scopeName: 'a', streams: streams(4500), readerGroups: groups(499) },
          { scopeName: 'b', streams: streams(4500), readerGroups: groups(499) },
        ],
      }),
    ).not.toThrow();
    const refused = refusalOf({
      scopes: [
        { scopeName: 'a', streams: streams(4500), readerGroups: groups(500) },
        { scopeName: 'b', streams: streams(4500), readerGroups: groups(499) },
      ],
    });
    expect(refused.violations).toEqual([
      {
        field: 'scopes',
        message: 'must list at most 10000 resources (scopes, streams and reader groups) in all',
      },
    ]);
    const scopes = Array.from({ length: 560_000 }, (_, i) => ({ scopeName: `s${i}` }));
    expect(violationsOf({ scopes })).toEqual(['scopes']);
  });

  it('refuses a list longer than its maximum by its length, naming it', () => {
    const refused = refusalOf({
      scopes: [
        {
          scopeName: 's',
          streams: [
            { streamName: 'ok', streamTags: ['a'] },
            { streamName: 't', streamTags: Array.from({ length: 160_000 }, (_, i) => `t${i}`) },
          ],
          readerGroups: [{ readerGroupName: 'g', streams: Array(1001).fill('ok') }],
        },
      ],
    });
    expect(refused.violations).toEqual([
      {
        field: 'scopes[0].streams[1].streamTags',
        message: 'must list at most 1000 tags',
      },
      {
        field: 'scopes[0].readerGroups[0].streams',
        message: 'must list at most 1000 streams',
      },
    ]);
  });

  it('refuses a field it does not know, at any level, naming its path', () => {
    const refused = refusalOf({
      scopes: [
        {
          scopeName: 's',
          streams: [
            { streamName: 'a' },
            {
              streamName: 't',
              streamtags: ['keep'],
              scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1, segments: 2 },
              retentionPolicy: { type: 'LIMITED_DAYS', value: 0, timeBasedRetention: { weeks: 1 } },
            },
          ],
          readerGroups: [{ readerGroupName: 'g', streams: ['a'], readers: [] }],
          owner: 'me',
        },
      ],
      prun: true,
    });
    expect(new Set(refused.violations)).toEqual(
      new Set(
        [
          'prun',
          'scopes[0].owner',
          'scopes[0].streams[1].streamtags',
          'scopes[0].streams[1].scalingPolicy.segments',
          'scopes[0].streams[1].retentionPolicy.timeBasedRetention.weeks',
          'scopes[0].readerGroups[0].readers',
        ].map((field) => ({ field, message: 'is not a known field' })),
      ),
    );
  });

  it("validates a scope's policy as the PUT of a policy does, naming each full path", () => {
    const policy = { maxStreams: 3, retention: { maxDays: 30 }, streamNames: ['o-*'] };
    const doc = validateApplyDocument({ scopes: [{ scopeName: 'sales', policy }] });
    expect(doc.scopes[0].policy).toEqual(policy);
    expect(
      validateApplyDocument({ scopes: [{ scopeName: 's', policy: {} }] }).scopes[0].policy,
    ).toEqual({});
    const refused = (policy: unknown) =>
      refusalOf({ scopes: [{ scopeName: 'ok' }, { scopeName: 'sales', policy }] }).violations;
    expect(
      refused({
        maxStreams: -1,
        maxSegmentsPerStream: 'many',
        retention: { maxDays: 0, forever: true },
        streamNames: ['a', 'a'],
        scalingTypes: [],
        maxstreams: 3,
      })
        .map((v) => v.field)
        .sort(),
    ).toEqual(
      [
        'scopes[1].policy.maxSegmentsPerStream',
        'scopes[1].policy.maxStreams',
        'scopes[1].policy.maxstreams',
        'scopes[1].policy.retention.forever',
        'scopes[1].policy.retention.maxDays',
        'scopes[1].policy.scalingTypes',
        'scopes[1].policy.streamNames[1]',
      ].sort(),
    );
    expect(new Set(violationsOf({ scopes: [{ scopeName: 's', policy: 'none' }] }))).toEqual(
      new Set(['scopes[0].policy']),
    );
  });
});
