import { JsonShapeScanner, jsonShapeProblem } from './json-shape';

const shapeOf = (text: string, maxDepth = 3, maxEntries = 5) =>
  jsonShapeProblem(Buffer.from(text, 'utf8'), maxDepth, maxEntries);

const nested = (depth: number, inner = ''): string => '['.repeat(depth) + inner + ']'.repeat(depth);
const list = (n: number, item = '1'): string => `[${Array(n).fill(item).join(',')}]`;

describe('jsonShapeProblem', () => {
  describe('depth', () => {
    it('counts objects and arrays', () => {
      expect(shapeOf('{}')).toBeUndefined();
      expect(shapeOf(nested(3))).toBeUndefined();
      expect(shapeOf(nested(4))).toBe('too-deep');
      expect(shapeOf('{"a":{"b":{"c":1}}}')).toBeUndefined();
      expect(shapeOf('{"a":{"b":{"c":[1]}}}')).toBe('too-deep');
      expect(shapeOf('[{"a":[{"b":1}]}]')).toBe('too-deep');
    });

    it('counts the depth, not the number of containers', () => {
      const wide = `{"a":[[1],[2]],"b":{"c":[3]},"d":${list(5, '[4]')}}`;
      expect(shapeOf(wide)).toBeUndefined();
    });

    it('does not count brackets inside strings', () => {
      expect(shapeOf(`{"a":"${'['.repeat(100)}"}`)).toBeUndefined();
      expect(shapeOf(`{"${'{'.repeat(100)}":1}`)).toBeUndefined();
    });

    it('is not fooled by escaped quotes and backslashes', () => {
      // An escaped quote does not end the string: the brackets after it are still inside.
      expect(shapeOf(`{"a":"\\"${'['.repeat(10)}"}`)).toBeUndefined();
      // An escaped backslash does not escape the quote after it: the brackets after it count.
      expect(shapeOf(`{"a":"\\\\",  "b":${nested(3)}}`)).toBe('too-deep');
      expect(shapeOf(`["\\\\\\"[[[[", [[1]]]`)).toBeUndefined();
    });

    it('is not fooled by multi-byte characters', () => {
      expect(shapeOf(`{"é漢😀":"${'['.repeat(10)}😀"}`)).toBeUndefined();
      expect(shapeOf(`["漢", ${nested(3, '"😀"')}]`)).toBe('too-deep');
    });

    it('stops at the first level too deep, whatever follows', () => {
      expect(shapeOf(`${nested(4)}{{{ not json at all`)).toBe('too-deep');
      expect(jsonShapeProblem(Buffer.from(nested(100_000)), 64, 10_000)).toBe('too-deep');
    });
  });

  describe('entries', () => {
    it('counts the entries of each array', () => {
      expect(shapeOf(list(5))).toBeUndefined();
      expect(shapeOf(list(6))).toBe('too-many-entries');
      expect(shapeOf(`{"a":${list(5)},"b":${list(5)}}`)).toBeUndefined();
      expect(shapeOf(`{"a":${list(5)},"b":[1,${list(6)}]}`)).toBe('too-many-entries');
      // A list of lists: the outer one's entries are its own.
      expect(shapeOf(list(5, list(5)))).toBeUndefined();
    });

    it('leaves objects of many fields alone', () => {
      const fields = Array.from({ length: 100 }, (_, i) => `"f${i}":${i}`).join(',');
      expect(shapeOf(`{${fields}}`)).toBeUndefined();
    });

    it('does not count commas inside strings', () => {
      expect(shapeOf(`["${','.repeat(100)}"]`)).toBeUndefined();
      expect(shapeOf(`["a\\",,,,,,", 1]`)).toBeUndefined();
    });
  });

  it('reads text split anywhere as it reads it whole', () => {
    const texts = [
      `{"a":"\\\\",  "b":${nested(3)}}`,
      `["\\\\\\"[[[[", [[1]]]`,
      `{"é漢😀":"${'['.repeat(10)}😀"}`,
      `{"a":${list(5)},"b":[1,${list(6)}]}`,
      `["a\\",,,,,,", 1]`,
    ];
    for (const text of texts) {
      const bytes = Buffer.from(text);
      const whole = jsonShapeProblem(bytes, 3, 5);
      for (let size = 1; size < 8; size++) {
        const scanner = new JsonShapeScanner(3, 5);
        let found: string | undefined;
        for (let i = 0; i < bytes.length && !found; i += size) {
          found = scanner.feed(bytes.subarray(i, i + size));
        }
        expect([text, size, found]).toEqual([text, size, whole]);
      }
    }
  });

  it('leaves malformed text to the parser', () => {
    expect(shapeOf('{"a": "unterminated [[[[')).toBeUndefined();
    expect(shapeOf(']]]]]]{[')).toBeUndefined();
  });
});
