import {
  alternatives,
  hasPolicy,
  limitUse,
  limitWords,
  moreWords,
  nonCompliantWords,
  streamRules,
  withRule,
} from './policy-words';

describe('hasPolicy', () => {
  it.each([
    [undefined, false],
    [{}, false],
    [{ owner: 'team-a' }, true],
    [{ maxStreams: 0 }, true],
  ])('%j: %p', (policy, has) => {
    expect(hasPolicy(policy)).toBe(has);
  });
});

describe('the words of a limit', () => {
  it('says what is used of it', () => {
    expect(limitUse(3, 5, 'stream')).toEqual('3 of 5 streams');
    expect(limitUse(0, 1, 'stream')).toEqual('0 of 1 stream');
    expect(limitUse(1200, 40000, 'active segment')).toEqual('1,200 of 40,000 active segments');
  });

  it('says the limit alone', () => {
    expect(limitWords(16, 'segment')).toEqual('16 segments at most');
    expect(limitWords(1, 'segment')).toEqual('1 segment at most');
  });
});

describe('alternatives', () => {
  it.each([
    [[], ''],
    [['a'], 'a'],
    [['a', 'b'], 'a or b'],
    [['a', 'b', 'c'], 'a, b or c'],
  ])('%j reads %p', (items, words) => {
    expect(alternatives(items)).toEqual(words);
  });
});

describe('streamRules', () => {
  it('says nothing of a policy without stream rules', () => {
    expect(streamRules({ owner: 'team-a', maxStreams: 5 })).toEqual({});
  });

  it('says each stream rule in words', () => {
    expect(
      streamRules({
        streamNames: ['payments-*', 'pay-??'],
        scalingTypes: ['FIXED_NUM_SEGMENTS', 'BY_RATE_IN_EVENTS_PER_SEC'],
        retention: { required: true, maxDays: 30, maxSizeMb: 1024 },
        requiredTags: ['owner:*'],
      }),
    ).toEqual({
      streamNames:
        "A new stream's name must match payments-* or pay-?? (* any characters, ? one character).",
      scalingTypes: 'Scaling must be fixed number of segments or by rate, events per second.',
      retention:
        'Every stream must have a retention policy; kept by time, at most 30 days; kept by size, at most 1024 MB.',
      requiredTags: 'Every stream needs a tag matching owner:*.',
    });
  });

  it('says retention bounds that do not require retention', () => {
    expect(streamRules({ retention: { maxDays: 1 } }).retention).toEqual(
      'Retention is optional; kept by time, at most 1 day.',
    );
    expect(streamRules({ requiredTags: ['owner:*', 'team:*'] }).requiredTags).toEqual(
      'Every stream needs a tag matching each of owner:*, team:*.',
    );
  });
});

describe('the words of compliance', () => {
  it('counts the streams that break the policy, and those not listed', () => {
    expect(nonCompliantWords(1)).toEqual('1 stream breaks the policy now');
    expect(nonCompliantWords(1500)).toEqual('1,500 streams break the policy now');
    expect(moreWords(105, 10)).toEqual('and 95 more');
    expect(moreWords(3, 10)).toEqual('');
  });
});

describe('withRule', () => {
  it("follows a field's hint with its rule, when there is one", () => {
    expect(withRule('One per line', undefined)).toEqual('One per line');
    expect(withRule('One per line', 'Every stream needs a tag matching owner:*.')).toEqual(
      'One per line. Every stream needs a tag matching owner:*.',
    );
  });
});
