import { clipText, listed, MAX_LISTED_IN_TEXT } from './bounded-text';

/** What a string takes in a JSON document, in UTF-8, without its quotes. */
const jsonBytes = (text: string): number => Buffer.byteLength(JSON.stringify(text)) - 2;

describe('clipText', () => {
  it('keeps text that fits', () => {
    expect(clipText('scopes[0].streamName', 100)).toBe('scopes[0].streamName');
    expect(clipText('x'.repeat(100), 100)).toBe('x'.repeat(100));
  });

  it('cuts text that does not fit, with an ellipsis, within the bound', () => {
    const clipped = clipText('x'.repeat(1000), 100);
    expect(clipped).toBe(`${'x'.repeat(97)}…`);
    expect(jsonBytes(clipped)).toBe(100);
  });

  it.each([
    ['control characters', '\u0001'],
    ['quotes', '"'],
    ['backslashes', '\\'],
    ['accented letters', 'é'],
    ['CJK', '漢'],
    ['emoji', '😀'],
  ])('bounds the JSON bytes of %s', (_name, unit) => {
    const clipped = clipText(unit.repeat(10_000), 256);
    expect(jsonBytes(clipped)).toBeLessThanOrEqual(256);
    expect(clipped.length).toBeGreaterThan(256 / 8);
  });

  it('never splits a surrogate pair', () => {
    for (let bytes = 10; bytes < 20; bytes++) {
      const clipped = clipText('😀'.repeat(100), bytes);
      expect(clipped.endsWith('…')).toBe(true);
      expect(clipped.slice(0, -1)).toBe('😀'.repeat((clipped.length - 1) / 2));
    }
  });
});

describe('listed', () => {
  it('names a short list whole', () => {
    expect(listed([1, 2, 3], String)).toBe('1, 2, 3');
    expect(listed(['a: b'], (s) => s, '; ')).toBe('a: b');
    expect(listed([], String)).toBe('');
  });

  it('names the first entries of a long list, then how many more', () => {
    const numbers = Array.from({ length: 480_000 }, (_, i) => i);
    const text = listed(numbers, String);
    expect(text).toBe(
      `${numbers.slice(0, MAX_LISTED_IN_TEXT).join(', ')} and ${480_000 - MAX_LISTED_IN_TEXT} more`,
    );
  });

  it('clips each entry', () => {
    const text = listed(['x'.repeat(100_000), 'y'], (s) => s);
    expect(text.length).toBeLessThan(300);
    expect(text.endsWith('…, y')).toBe(true);
  });
});
