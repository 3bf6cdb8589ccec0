import { Principal } from '../principal';
import { VerifiedTokens } from './verified-tokens';

describe('VerifiedTokens', () => {
  const alice = new Principal('alice', 'bearer', []);
  const bob = new Principal('bob', 'bearer', []);
  const groups = new Map();

  it('answers a token within its validity, for the same keys and group ACLs only', () => {
    let now = 1_000;
    const tokens = new VerifiedTokens(10, () => now);
    tokens.set('t', { principal: alice, from: 900, until: 2_000, keys: 1, groupAcls: groups });
    expect(tokens.get('t', 1, groups)).toBe(alice);
    expect(tokens.get('other', 1, groups)).toBeUndefined();
    expect(tokens.get('t', 2, groups)).toBeUndefined();
    // An entry that failed once is gone: the next look verifies afresh.
    expect(tokens.get('t', 1, groups)).toBeUndefined();

    tokens.set('t', { principal: alice, from: 900, until: 2_000, keys: 1, groupAcls: groups });
    expect(tokens.get('t', 1, new Map())).toBeUndefined();
    tokens.set('t', { principal: alice, from: 900, until: 2_000, keys: 1, groupAcls: groups });
    now = 2_001;
    expect(tokens.get('t', 1, groups)).toBeUndefined();
    tokens.set('t', { principal: alice, from: 900, until: 3_000, keys: 1, groupAcls: groups });
    now = 899;
    expect(tokens.get('t', 1, groups)).toBeUndefined();
  });

  it('forgets the oldest token beyond its capacity', () => {
    const tokens = new VerifiedTokens(2, () => 0);
    const entry = { from: 0, until: 10, keys: 1, groupAcls: groups };
    tokens.set('a', { ...entry, principal: alice });
    tokens.set('b', { ...entry, principal: bob });
    tokens.set('c', { ...entry, principal: alice });
    expect(['a', 'b', 'c'].map((t) => tokens.get(t, 1, groups)?.name)).toEqual([
      undefined,
      'bob',
      'alice',
    ]);
  });
});
