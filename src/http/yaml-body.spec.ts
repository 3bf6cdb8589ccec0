import { ApplyDocumentDto } from '../apply/apply-document.dto';
import { InvalidRequestError, MalformedBodyError } from '../common/domain-error';
import { MAX_BODY_DEPTH, MAX_YAML_ALIASES, MAX_LIST_ENTRIES } from './body-limits';
import { readYamlBody } from './yaml-body';

const MIB = 1024 * 1024;
const read = (text: string, maxBytes = MIB): unknown => readYamlBody(text, maxBytes);

/** The detail of the 400 that `text` is refused with. */
function refusal(text: string, maxBytes = MIB): string {
  try {
    read(text, maxBytes);
  } catch (error) {
    if (error instanceof MalformedBodyError) return error.message;
    throw error;
  }
  throw new Error('the document was accepted');
}

const items = (n: number, item = (i: number) => `t${i}`): string =>
  Array.from({ length: n }, (_, i) => item(i)).join(', ');

/** A list of `size` tags anchored once, then aliased by `aliases` more streams. */
const aliasBomb = (size: number, aliases: number): string =>
  `scopes:\n  - scopeName: s\n    streams:\n      - streamName: x0\n        streamTags: &t [${items(size)}]\n` +
  Array.from(
    { length: aliases },
    (_, i) => `      - streamName: x${i + 1}\n        streamTags: *t\n`,
  ).join('');

describe('readYamlBody', () => {
  it('reads what JSON could say', () => {
    expect(
      read(
        'scopes:\n  - scopeName: sales\n    streams:\n      - {streamName: orders, streamTags: [a, "b"]}\nprune: false\nn: 1.5\nnothing: ~\n',
      ),
    ).toEqual({
      scopes: [{ scopeName: 'sales', streams: [{ streamName: 'orders', streamTags: ['a', 'b'] }] }],
      prune: false,
      n: 1.5,
      nothing: null,
    });
    expect(read('')).toBeNull();
    expect(read('1: one\ntrue: yes\n~: none\n')).toEqual({ 1: 'one', true: 'yes', '': 'none' });
  });

  it('keeps __proto__ a field, as JSON.parse does', () => {
    const value = read('__proto__: {polluted: true}\n') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives an alias the value of its anchor', () => {
    const value = read('a: &x [1, 2]\nb: *x\nc: &y {k: v}\nd: [*y, *y]\n') as Record<
      string,
      unknown
    >;
    expect(value).toEqual({ a: [1, 2], b: [1, 2], c: { k: 'v' }, d: [{ k: 'v' }, { k: 'v' }] });
    // The last anchor of a name before the alias is the one it names.
    expect(read('a: &x 1\nb: &x 2\nc: *x\n')).toEqual({ a: 1, b: 2, c: 2 });
  });

  it('refuses what is not valid YAML, or more than one document', () => {
    expect(refusal('scopes: [unclosed')).toBe('The request body is not valid YAML');
    expect(refusal('a: 1\na: 2\n')).toBe('The request body is not valid YAML');
    expect(refusal('a: 1\n---\nb: 2\n')).toBe('The request body must be one YAML document');
    expect(refusal('a: *nowhere\n')).toMatch(/is not valid YAML|no anchor before it/);
    expect(refusal('? [a, b]\n: c\n')).toBe(
      'The request body has a mapping key that is not a scalar',
    );
  });

  describe('depth', () => {
    const flow = (depth: number) => `a: ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}\n`;
    const block = (depth: number) =>
      Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1\n';

    it(`accepts ${MAX_BODY_DEPTH} levels and refuses one more, in flow and block style`, () => {
      expect(() => read(flow(MAX_BODY_DEPTH))).not.toThrow();
      expect(refusal(flow(MAX_BODY_DEPTH + 1))).toBe(
        `The request body nests deeper than ${MAX_BODY_DEPTH} levels`,
      );
      expect(() => read(block(MAX_BODY_DEPTH))).not.toThrow();
      expect(refusal(block(MAX_BODY_DEPTH + 1))).toBe(
        `The request body nests deeper than ${MAX_BODY_DEPTH} levels`,
      );
      expect(() => read(`a:\n  ${'- '.repeat(MAX_BODY_DEPTH - 1)}x\n`)).not.toThrow();
      expect(refusal(`a:\n  ${'- '.repeat(MAX_BODY_DEPTH)}x\n`)).toMatch(/nests deeper/);
    });

    it('counts the depth an alias adds where it is used', () => {
      const half = MAX_BODY_DEPTH / 2;
      const anchored = `a: &x ${'['.repeat(half)}${']'.repeat(half)}\n`;
      expect(() =>
        read(`${anchored}b: ${'['.repeat(half - 2)}*x${']'.repeat(half - 2)}\n`),
      ).not.toThrow();
      expect(refusal(`${anchored}b: ${'['.repeat(half)}*x${']'.repeat(half)}\n`)).toMatch(
        /nests deeper/,
      );
    });

    it('stops reading at the first level too deep (100,000 levels)', () => {
      const started = Date.now();
      expect(refusal(`scopes: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`)).toMatch(/deeper/);
      expect(refusal(`scopes:\n  - ${'- '.repeat(100_000)}x\n`)).toMatch(/deeper/);
      // Read to its end, such a document takes the YAML parser seconds.
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });

  describe('entries', () => {
    it(`accepts ${MAX_LIST_ENTRIES} entries and refuses one more, naming the line`, () => {
      expect(() => read(`a: [${items(MAX_LIST_ENTRIES)}]\n`)).not.toThrow();
      expect(refusal(`x: 1\na: [${items(MAX_LIST_ENTRIES + 1)}]\n`)).toBe(
        `The request body has a list or mapping of more than ${MAX_LIST_ENTRIES} entries (line 2)`,
      );
      const blockList = `a:\n${items(MAX_LIST_ENTRIES + 1, (i) => `  - t${i}`).replace(/, /g, '\n')}\n`;
      expect(refusal(blockList)).toMatch(/more than 10000 entries \(line 2\)/);
      const mapping = items(MAX_LIST_ENTRIES + 1, (i) => `k${i}: 1`).replace(/, /g, '\n');
      expect(refusal(mapping)).toMatch(/more than 10000 entries \(line 1\)/);
    });

    it('stops reading a long list at its bound', () => {
      const huge = `a: [${items(1_000_000)}]\n`;
      const started = Date.now();
      expect(refusal(huge, 16 * MIB)).toMatch(/more than 10000 entries/);
      // Read to its end, 6.9 MB of YAML takes the parser many seconds.
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });

  describe('the lists of a DTO', () => {
    /** The violations of the 400 that `text` is refused with, read as an apply document. */
    function violations(text: string): unknown {
      try {
        readYamlBody(text, 16 * MIB, ApplyDocumentDto);
      } catch (error) {
        if (error instanceof InvalidRequestError) return error.violations;
        throw error;
      }
      throw new Error('the document was accepted');
    }

    it('refuses a list past its own maximum while reading it, naming its path', () => {
      const tags = (n: number) => `[${items(n)}]`;
      const document = (n: number, style: 'flow' | 'block') =>
        'scopes:\n  - scopeName: s\n    streams:\n      - streamName: a\n' +
        '      - streamName: b\n        streamTags: ' +
        (style === 'flow'
          ? `${tags(n)}\n`
          : `\n${items(n, (i) => `          - t${i}`).replace(/, /g, '\n')}\n`);
      expect(() => readYamlBody(document(1000, 'flow'), MIB, ApplyDocumentDto)).not.toThrow();
      const refusal = [
        { field: 'scopes[0].streams[1].streamTags', message: 'must list at most 1000 tags' },
      ];
      expect(violations(document(1001, 'flow'))).toEqual(refusal);
      expect(violations(document(1001, 'block'))).toEqual(refusal);
    });

    it('stops at the anchored list of an alias bomb, before anything expands', () => {
      const bomb = aliasBomb(1_000_000, 99);
      const started = Date.now();
      expect(violations(bomb)).toEqual([
        { field: 'scopes[0].streams[0].streamTags', message: 'must list at most 1000 tags' },
      ]);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('keeps the general bound for lists its DTO does not know', () => {
      expect(refusal(`scopes: []\nother: [${items(MAX_LIST_ENTRIES + 1)}]\n`)).toMatch(
        /more than 10000 entries \(line 2\)/,
      );
    });
  });

  describe('aliases', () => {
    it(`accepts ${MAX_YAML_ALIASES} aliases and refuses one more`, () => {
      const uses = (n: number) => `a: &a [x]\nb: [${items(n, () => '*a')}]\n`;
      expect(() => read(uses(MAX_YAML_ALIASES))).not.toThrow();
      expect(refusal(uses(MAX_YAML_ALIASES + 1))).toBe(
        `The request body uses more than ${MAX_YAML_ALIASES} aliases`,
      );
    });

    it('refuses a document that its aliases expand beyond the byte limit', () => {
      // 99 copies of 9,000 tags: 133 KB written, 8.9 MB once expanded.
      const bomb = aliasBomb(9000, 99);
      expect(bomb.length).toBeLessThan(140_000);
      expect(() => read(bomb, 16 * MIB)).not.toThrow();
      expect(refusal(bomb, MIB)).toBe(`The request body expands to more than ${MIB} bytes`);
    });

    it('refuses nested aliases that expand exponentially, without expanding them', () => {
      const levels = Array.from(
        { length: 9 },
        (_, i) => `l${i + 1}: &l${i + 1} [${items(10, () => `*l${i}`)}]`,
      );
      const laughs = `l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n${levels.join('\n')}\n`;
      const started = Date.now();
      expect(refusal(laughs, 16 * MIB)).toMatch(/expands to more than/);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('refuses an alias inside its own anchor', () => {
      expect(refusal('a: &a [1, *a]\n')).toMatch(/inside its own anchor|not valid YAML/);
    });
  });
});
