import fc from 'fast-check';
import { listElements, splitOutsideQuotes, weightedElements } from './header-list';

/** What the list syntax means for a header without quotes, said the plainest way. */
const plainSplit = (text: string, separator: string): string[] =>
  text
    .split(separator)
    .map((part) => part.replace(/^[ \t]+/, '').replace(/[ \t]+$/, ''))
    .filter((part) => part.length > 0);

describe('header lists', () => {
  it('reads elements between commas, trimmed, skipping empty ones', () => {
    expect(listElements(undefined)).toEqual([]);
    expect(listElements('')).toEqual([]);
    expect(listElements(' a ,\tb,, ,c ')).toEqual(['a', 'b', 'c']);
    expect(listElements(['a, b', 'c'])).toEqual(['a', 'b', 'c']);
  });

  it('keeps a quoted string whole, commas and semicolons included; a backslash escapes nothing', () => {
    expect(listElements('"a,b" , W/"c;d", "e\\", "f"')).toEqual([
      '"a,b"',
      'W/"c;d"',
      '"e\\"',
      '"f"',
    ]);
    expect(splitOutsideQuotes('a; b="x;y" ;c', ';')).toEqual(['a', 'b="x;y"', 'c']);
  });

  it('keeps what follows an unclosed quote as one element', () => {
    expect(listElements('a, "b, c')).toEqual(['a', '"b, c']);
  });

  it("trims only spaces and tabs, the list syntax's own whitespace", () => {
    expect(listElements('\u00a0a\u00a0, b')).toEqual(['\u00a0a\u00a0', 'b']);
  });

  it('reads a run of spaces as long as a header may be without backtracking', () => {
    const header = `a${' '.repeat(16_000)}b, ${' '.repeat(16_000)}`;
    expect(listElements(header)).toEqual([`a${' '.repeat(16_000)}b`]);
    expect(weightedElements(`text/html;${' '.repeat(16_000)}q=0`)).toEqual([
      { value: 'text/html', weight: 0 },
    ]);
  });

  it('agrees with a plain split wherever there is no quote', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'B', ',', ';', ' ', '\t', '='),
      maxLength: 60,
    });
    fc.assert(
      fc.property(text, (header) => {
        expect(listElements(header)).toEqual(plainSplit(header, ','));
        expect(splitOutsideQuotes(header, ';')).toEqual(plainSplit(header, ';'));
      }),
    );
  });

  it('gives back the elements it was given, whatever spaces surround the commas', () => {
    const token = fc.string({ unit: fc.constantFrom('a', 'z', '0', '/', '-', '.'), minLength: 1 });
    const quoted = fc
      .string({ unit: fc.constantFrom('a', ',', ';', ' ', '\\'), maxLength: 8 })
      .map((inner) => `"${inner}"`);
    const space = fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(token, quoted), space, space), { maxLength: 10 }),
        (parts) => {
          const header = parts
            .map(([element, before, after]) => before + element + after)
            .join(',');
          expect(listElements(header)).toEqual(parts.map(([element]) => element));
        },
      ),
    );
  });

  it('weighs the elements of Accept and Accept-Encoding', () => {
    expect(
      weightedElements('Text/Event-Stream;Q=0.5, gzip;q=0 , br;level="1;2";q=1, *;q=abc, x;q='),
    ).toEqual([
      { value: 'text/event-stream', weight: 0.5 },
      { value: 'gzip', weight: 0 },
      { value: 'br', weight: 1 },
      { value: '*', weight: 0 },
      { value: 'x', weight: 0 },
    ]);
    expect(weightedElements(';q=1, a ; b=c')).toEqual([
      { value: '', weight: 1 },
      { value: 'a', weight: 1 },
    ]);
  });
});
