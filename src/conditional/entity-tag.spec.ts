import fc from 'fast-check';
import {
  ifMatchHolds,
  MalformedConditionError,
  notModified,
  parseCondition,
  strongTag,
} from './entity-tag';

describe('entity tags and conditions', () => {
  const current = strongTag('7f3a', 4);

  it('makes a strong tag of the parts that identify a state', () => {
    expect(current).toBe('"7f3a.4"');
  });

  it('reads *, single tags, lists, weak tags and repeated headers', () => {
    expect(parseCondition(undefined)).toBeUndefined();
    expect(parseCondition(' * ')).toBe('*');
    expect(parseCondition('"a"')).toEqual([{ weak: false, opaque: 'a' }]);
    expect(parseCondition('W/"a", "b,c" ,, "d"')).toEqual([
      { weak: true, opaque: 'a' },
      { weak: false, opaque: 'b,c' },
      { weak: false, opaque: 'd' },
    ]);
    expect(parseCondition(['"a"', '"b"'])).toEqual([
      { weak: false, opaque: 'a' },
      { weak: false, opaque: 'b' },
    ]);
    expect(parseCondition('""')).toEqual([{ weak: false, opaque: '' }]);
  });

  it.each(['', 'a', '"a', 'a"', '"a b"', 'w/"a"', '"a"x', '*, "a"', '"a" "b"', ','])(
    'refuses the malformed condition %j',
    (header) => {
      expect(() => parseCondition(header)).toThrow(MalformedConditionError);
    },
  );

  it('If-Match: the current strong tag or * holds; weak, stale or absent tags do not', () => {
    expect(ifMatchHolds(undefined, current)).toBe(true);
    expect(ifMatchHolds('*', current)).toBe(true);
    expect(ifMatchHolds(parseCondition('"x", "7f3a.4"'), current)).toBe(true);
    expect(ifMatchHolds(parseCondition('W/"7f3a.4"'), current)).toBe(false);
    expect(ifMatchHolds(parseCondition('"7f3a.3"'), current)).toBe(false);
  });

  it('If-None-Match: a matching tag, weak or strong, or * means not modified', () => {
    expect(notModified(undefined, current)).toBe(false);
    expect(notModified('*', current)).toBe(true);
    expect(notModified(parseCondition('W/"7f3a.4"'), current)).toBe(true);
    expect(notModified(parseCondition('"7f3a.4"'), current)).toBe(true);
    expect(notModified(parseCondition('"7f3a.5"'), current)).toBe(false);
  });

  it('reads back every list of tags it could have written', () => {
    const opaque = fc.stringMatching(/^[\x21\x23-\x7e]{0,12}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), opaque), { minLength: 1 }), (tags) => {
        const header = tags.map(([weak, value]) => `${weak ? 'W/' : ''}"${value}"`).join(', ');
        expect(parseCondition(header)).toEqual(
          tags.map(([weak, value]) => ({ weak, opaque: value })),
        );
      }),
    );
  });
});
