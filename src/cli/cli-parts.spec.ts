import { stripVTControlCharacters } from 'node:util';
import { answerError } from './client';
import { colourWanted } from './colours';
import { policyBody } from './commands/stream-options';
import { CliError, Exit, exitCodeOf } from './exit-codes';
import { flatten, render } from './output';
import { allPages } from './pages';
import { changeCount, formatPlan } from './plan-diff';

describe('exit codes', () => {
  it.each([
    [404, Exit.notFound],
    [409, Exit.conflict],
    [412, Exit.conflict],
    [401, Exit.auth],
    [403, Exit.auth],
    [400, Exit.invalid],
    [413, Exit.invalid],
    [415, Exit.invalid],
    [422, Exit.invalid],
    [429, Exit.unavailable],
    [500, Exit.unavailable],
    [503, Exit.unavailable],
  ])('maps %i to %i', (status, code) => expect(exitCodeOf(status)).toBe(code));

  it("tells the problem document's detail, each invalid field and each conflict", () => {
    const error = answerError(new Response(null, { status: 409, statusText: 'Conflict' }), {
      detail: 'The document conflicts',
      code: 'APPLY_CONFLICT',
      errors: [{ field: 'scopes[0].scopeName', message: 'must not be empty' }],
      conflicts: [{ resource: 'prn::/scope:s/stream:t', message: 'sealed' }],
    });
    expect(error).toMatchObject({
      message: 'The document conflicts',
      exitCode: Exit.conflict,
      code: 'APPLY_CONFLICT',
      details: ['scopes[0].scopeName: must not be empty', 'prn::/scope:s/stream:t: sealed'],
    });
  });

  it("tells each rule a policy's refusal names, with its resource when it has one", () => {
    const error = answerError(new Response(null, { status: 422 }), {
      detail: 'Creating stream s/t breaks the policy of scope s',
      code: 'POLICY_VIOLATION',
      violations: [
        { rule: 'maxStreams', limit: 5, actual: 6, detail: 'Six streams, over five.' },
        {
          rule: 'requiredTags',
          limit: 'owner:*',
          detail: 'No tag matches owner:*.',
          resource: 'prn::/scope:s/stream:t',
        },
      ],
    });
    expect(error).toMatchObject({
      exitCode: Exit.invalid,
      details: [
        'maxStreams: Six streams, over five.',
        'prn::/scope:s/stream:t: requiredTags: No tag matches owner:*.',
      ],
    });
  });

  it('falls back to the status line when the body is empty', () => {
    const error = answerError(new Response(null, { status: 404, statusText: 'Not Found' }), '');
    expect(error.message).toBe('404 Not Found');
  });
});

describe('allPages', () => {
  it('follows continuation tokens until a page has none', async () => {
    const pages: Record<string, { items: number[]; continuationToken?: string }> = {
      first: { items: [1, 2], continuationToken: 'a' },
      a: { items: [3], continuationToken: 'b' },
      b: { items: [] },
    };
    const asked: (string | undefined)[] = [];
    const items = await allPages((token) => {
      asked.push(token);
      return Promise.resolve(pages[token ?? 'first']);
    });
    expect(items).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, 'a', 'b']);
  });

  it('stops with exit 6 when the service hands out a token twice', async () => {
    const walk = allPages(() => Promise.resolve({ items: [1], continuationToken: 'same' }));
    await expect(walk).rejects.toMatchObject({ exitCode: Exit.unavailable });
  });
});

describe('policyBody', () => {
  it('leaves out what was not given, so the service applies its defaults', () => {
    expect(policyBody({})).toEqual({});
    expect(policyBody({ minSegments: 3, tag: ['a', 'b'] })).toEqual({
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 3 },
      streamTags: ['a', 'b'],
    });
    expect(
      policyBody({
        scalingType: 'BY_RATE_IN_EVENTS_PER_SEC',
        targetRate: 5,
        scaleFactor: 2,
        retentionType: 'LIMITED_SIZE_MB',
        retentionValue: 10,
      }),
    ).toEqual({
      scalingPolicy: { type: 'BY_RATE_IN_EVENTS_PER_SEC', targetRate: 5, scaleFactor: 2 },
      retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 10 },
    });
  });

  it('refuses a retention value without its type as a usage error', () => {
    expect(() => policyBody({ retentionValue: 3 })).toThrow(CliError);
    expect(() => policyBody({ retentionValue: 3 })).toThrow(
      expect.objectContaining({ exitCode: Exit.usage }) as Error,
    );
  });
});

describe('output', () => {
  it('renders the body as json or yaml and nothing for an empty answer', () => {
    const outcome = { body: { scopes: [{ scopeName: 's' }] }, table: () => 'T' };
    expect(JSON.parse(render(outcome, 'json'))).toEqual(outcome.body);
    expect(render(outcome, 'yaml')).toBe('scopes:\n  - scopeName: s\n');
    expect(render(outcome, 'table')).toBe('T\n');
    expect(render({ table: () => 'done' }, 'json')).toBe('');
  });

  it('flattens nested fields by path', () => {
    expect(flatten({ a: { b: 1, c: [1, 2] }, d: [{ e: 'x' }] })).toEqual([
      ['a.b', 1],
      ['a.c', '1, 2'],
      ['d[0].e', 'x'],
    ]);
  });
});

describe('formatPlan', () => {
  const plan = {
    dryRun: true,
    applied: false,
    planVersion: '"v"',
    summary: { create: 1, update: 1, delete: 0, unchanged: 1 },
    changes: [
      { action: 'unchanged' as const, kind: 'scope' as const, resource: 'prn::/scope:s' },
      { action: 'create' as const, kind: 'stream' as const, resource: 'prn::/scope:s/stream:a' },
      {
        action: 'update' as const,
        kind: 'stream' as const,
        resource: 'prn::/scope:s/stream:b',
        diff: [
          { path: 'scalingPolicy.minSegments', before: 1, after: 4 },
          { path: 'retentionPolicy', before: { type: 'LIMITED_SIZE_MB', value: 1 } },
        ],
      },
    ],
  };

  it('shows one line per change, one per changed field, and the totals', () => {
    // Colour depends on where the test runs; the words are what is checked.
    const text = stripVTControlCharacters(formatPlan(plan));
    expect(text).toContain('= unchanged scope       prn::/scope:s');
    expect(text).toContain('+ create    stream      prn::/scope:s/stream:a');
    expect(text).toContain('~ update    stream      prn::/scope:s/stream:b');
    expect(text).toContain('scalingPolicy.minSegments: 1 -> 4');
    expect(text).toContain('retentionPolicy: {"type":"LIMITED_SIZE_MB","value":1} -> (absent)');
    expect(text).toContain('1 to create, 1 to update, 0 to delete, 1 unchanged');
    expect(changeCount(plan)).toBe(2);
  });

  it("shows a scope's policy change with its fields, and a dry run's violations", () => {
    const policed = {
      ...plan,
      changes: [
        {
          action: 'update' as const,
          kind: 'scopePolicy' as const,
          resource: 'prn::/scope:s',
          diff: [{ path: 'retention.maxDays', before: 30, after: 7 }],
        },
      ],
      violations: [
        {
          rule: 'maxStreams',
          limit: 1,
          actual: 2,
          detail: 'The change would make 2 user streams in the scope, over the limit of 1.',
          resource: 'prn::/scope:s/stream:b',
        },
      ],
    };
    const text = stripVTControlCharacters(formatPlan(policed));
    expect(text).toContain('~ update    scopePolicy prn::/scope:s');
    expect(text).toContain('retention.maxDays: 30 -> 7');
    expect(text).toContain(
      'Policy violation: prn::/scope:s/stream:b: maxStreams: The change would make 2 user streams',
    );
    expect(stripVTControlCharacters(formatPlan(plan))).not.toContain('violation');
  });
});

describe('colourWanted', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ CI: 'true' }, false, false],
    [{ TERM: 'dumb' }, true, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
  ])('%j on a terminal: %s -> %s', (env, isTty, wanted) => {
    expect(colourWanted(env, isTty)).toBe(wanted);
  });
});
