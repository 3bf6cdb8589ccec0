import type { CurrentState } from './current-state';
import { applyPlan } from '../../test/support/plan-execution-model';
import { operationsOf, toApplyAnswer } from './plan-answer';
import { makePlan } from './plan';

describe('plan answer', () => {
  const empty: CurrentState = { scopes: [] };
  const first = makePlan(
    {
      scopes: [
        {
          scopeName: 's',
          streams: [{ streamName: 'a' }, { streamName: 'b' }],
          readerGroups: [{ readerGroupName: 'g', streams: ['a'] }],
        },
      ],
    },
    empty,
  );
  const state = applyPlan(empty, first);

  it('shows the changes without their targets, and conflicts only when there are some', () => {
    const answer = toApplyAnswer(first, true);
    expect(answer).toEqual({
      dryRun: true,
      applied: false,
      changes: [
        { action: 'create', kind: 'scope', resource: 'prn::/scope:s' },
        { action: 'create', kind: 'stream', resource: 'prn::/scope:s/stream:a' },
        { action: 'create', kind: 'stream', resource: 'prn::/scope:s/stream:b' },
        { action: 'create', kind: 'readerGroup', resource: 'prn::/scope:s/reader-group:g' },
      ],
      summary: { create: 4, update: 0, delete: 0, unchanged: 0 },
      planVersion: first.planVersion,
    });
    expect(toApplyAnswer(first, false)).toMatchObject({ dryRun: false, applied: true });
    const conflicted = makePlan(
      { scopes: [{ scopeName: 's', readerGroups: [{ readerGroupName: 'g', streams: ['b'] }] }] },
      state,
    );
    expect(toApplyAnswer(conflicted, true).conflicts).toEqual([
      { resource: 'prn::/scope:s/reader-group:g', message: expect.stringContaining('s/a') },
    ]);
  });

  it('names the single operations of each change, sealing a stream before deleting it', () => {
    const second = makePlan(
      {
        scopes: [{ scopeName: 's', streams: [{ streamName: 'a', streamTags: ['t'] }] }],
        prune: true,
      },
      state,
    );
    expect(second.changes.map((c) => [c.resource, operationsOf(c)])).toEqual([
      ['prn::/scope:s', []],
      ['prn::/scope:s/stream:a', ['updateStream']],
      ['prn::/scope:s/reader-group:g', ['deleteReaderGroup']],
      ['prn::/scope:s/stream:b', ['updateStreamState', 'deleteStream']],
    ]);
    expect(first.changes.map(operationsOf)).toEqual([
      ['createScope'],
      ['createStream'],
      ['createStream'],
      ['createReaderGroup'],
    ]);
  });
});
