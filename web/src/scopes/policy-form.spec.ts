import { listItems, policyForm, policyRequest } from './policy-form';

describe('listItems', () => {
  it('splits by lines and commas, trimmed, blanks dropped', () => {
    expect(listItems(' orders-*, payments-??\n\n refunds ,', { commas: true })).toEqual([
      'orders-*',
      'payments-??',
      'refunds',
    ]);
  });

  it('keeps commas within an item when told to split by lines only', () => {
    expect(listItems('owner:*\r\nteam:a,b\n', { commas: false })).toEqual(['owner:*', 'team:a,b']);
  });
});

describe('policyRequest', () => {
  it('sends an empty form as {}, which clears the policy', () => {
    expect(policyRequest(policyForm({}))).toEqual({ body: {} });
  });

  it('reads every field, and a policy read back gives the same body', () => {
    const policy = {
      owner: 'team-payments',
      description: 'Card events',
      maxStreams: 5,
      maxSegmentsPerStream: 16,
      maxActiveSegments: 40,
      streamNames: ['payments-*', 'pay-??'],
      scalingTypes: ['FIXED_NUM_SEGMENTS' as const],
      retention: { required: true, maxDays: 30, maxSizeMb: 1024 },
      requiredTags: ['owner:*'],
    };
    expect(policyRequest(policyForm(policy))).toEqual({ body: policy });
  });

  it('leaves out retention when nothing of it is set, and required when unticked', () => {
    const form = { ...policyForm({}), retentionMaxDays: '7' };
    expect(policyRequest(form)).toEqual({ body: { retention: { maxDays: 7 } } });
  });

  it('names each count that is not a whole number by its path', () => {
    const form = { ...policyForm({}), maxStreams: 'five', retentionMaxSizeMb: '1.5' };
    expect(policyRequest(form)).toEqual({
      problems: {
        maxStreams: 'must be a whole number',
        'retention.maxSizeMb': 'must be a whole number',
      },
    });
  });
});
