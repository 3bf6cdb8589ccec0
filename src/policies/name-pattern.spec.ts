import fc from 'fast-check';
import { anyMatches, NamePattern } from './name-pattern';

/**
 * The reference the matcher is checked against: the pattern as a regular expression, every
 * character escaped but `*` and `?`. Only the test's own generated patterns reach it.
 */
const reference = (pattern: string): RegExp =>
  new RegExp(
    `^${[...pattern]
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
    'su',
  );

/** Few distinct characters, so that patterns and names meet often. */
const characters = fc.constantFrom('a', 'b', '.', '-', '\u{1F600}', 'é');
const names = fc.array(characters, { maxLength: 12 }).map((cs) => cs.join(''));
const patterns = fc
  .array(fc.oneof(characters, fc.constantFrom('*', '?')), { maxLength: 10 })
  .map((cs) => cs.join(''));

describe('NamePattern', () => {
  it('matches whole names, case-sensitively, each character for itself', () => {
    const pattern = new NamePattern('orders.eu');
    expect(pattern.matches('orders.eu')).toBe(true);
    expect(pattern.matches('Orders.eu')).toBe(false);
    expect(pattern.matches('orders.eu1')).toBe(false);
    expect(pattern.matches('xorders.eu')).toBe(false);
    // A dot is a dot, not any character.
    expect(pattern.matches('orders-eu')).toBe(false);
  });

  it('takes * as any run of characters, none too, and ? as exactly one', () => {
    expect(new NamePattern('team-a-*').matches('team-a-')).toBe(true);
    expect(new NamePattern('team-a-*').matches('team-a-orders')).toBe(true);
    expect(new NamePattern('team-?').matches('team-')).toBe(false);
    expect(new NamePattern('team-?').matches('team-b')).toBe(true);
    expect(new NamePattern('team-?').matches('team-bc')).toBe(false);
    expect(new NamePattern('*').matches('')).toBe(true);
    expect(new NamePattern('').matches('')).toBe(true);
    expect(new NamePattern('').matches('a')).toBe(false);
    expect(new NamePattern('a*b*c').matches('abc')).toBe(true);
    expect(new NamePattern('a*b*c').matches('aXbYbZc')).toBe(true);
    expect(new NamePattern('a*b*c').matches('acb')).toBe(false);
    // The first and last pieces may not share characters of the name.
    expect(new NamePattern('ab*ba').matches('aba')).toBe(false);
  });

  it('takes a character outside the basic plane as one character', () => {
    expect(new NamePattern('?').matches('\u{1F600}')).toBe(true);
    expect(new NamePattern('??').matches('\u{1F600}')).toBe(false);
    expect(new NamePattern('owner:?').matches('owner:\u{1F600}')).toBe(true);
  });

  it('agrees with the regular expression of the same pattern, for any pattern and name', () => {
    fc.assert(
      fc.property(patterns, names, (pattern, name) => {
        expect(new NamePattern(pattern).matches(name)).toBe(reference(pattern).test(name));
      }),
      { numRuns: 5000 },
    );
  });

  it('matches every name against a pattern made from it with some characters starred or questioned', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(characters, fc.constantFrom('keep', 'star', 'question', 'starBefore'))),
        (parts) => {
          const name = parts.map(([c]) => c).join('');
          const pattern = parts
            .map(([c, how]) =>
              how === 'star' ? '*' : how === 'question' ? '?' : how === 'starBefore' ? `*${c}` : c,
            )
            .join('');
          expect(new NamePattern(pattern).matches(name)).toBe(true);
        },
      ),
    );
  });
});

describe('anyMatches', () => {
  it('is true when one pattern of several matches, false for none or no pattern', () => {
    const list = ['orders-*', 'payments-?'].map((p) => new NamePattern(p));
    expect(anyMatches(list, 'payments-1')).toBe(true);
    expect(anyMatches(list, 'audit')).toBe(false);
    expect(anyMatches([], 'audit')).toBe(false);
  });
});
