import { isInternalStreamName, markStreamName, scopeNameProblem, streamNameProblem } from './names';

describe('name rules', () => {
  it('accepts letters, digits, dots and dashes', () => {
    expect(scopeNameProblem('Scope-1.a')).toBeUndefined();
    expect(streamNameProblem('s')).toBeUndefined();
  });

  it('accepts a scope name of 255 characters and rejects 256', () => {
    expect(scopeNameProblem('a'.repeat(255))).toBeUndefined();
    expect(scopeNameProblem('a'.repeat(256))).toMatch(/at most 255/);
  });

  it('accepts a stream name of 250 characters and rejects 251', () => {
    expect(streamNameProblem('a'.repeat(250))).toBeUndefined();
    expect(streamNameProblem('a'.repeat(251))).toMatch(/at most 250/);
  });

  it.each(['_system', '_MARKx', '_'])('rejects the reserved name %s', (name) => {
    expect(scopeNameProblem(name)).toMatch(/reserved/);
    expect(streamNameProblem(name)).toMatch(/reserved/);
  });

  it.each(['a b', 'a/b', 'a_b', 'ä', 'a%2Fb', "a'b", 'a\u0000b', 'emoji😀'])(
    'rejects the character set of %j',
    (name) => {
      expect(scopeNameProblem(name)).toMatch(/characters/);
    },
  );

  it.each([[''], [null], [undefined], [42], [['a']], [{}]])('rejects %j', (name) => {
    expect(scopeNameProblem(name)).toBeDefined();
  });

  it('names companions and recognises internal streams', () => {
    expect(markStreamName('orders')).toBe('_MARKorders');
    expect(isInternalStreamName('_MARKorders')).toBe(true);
    expect(isInternalStreamName('_RGgroup')).toBe(true);
    expect(isInternalStreamName('orders')).toBe(false);
  });
});
