import { InvalidRequestError } from '../common/errors/domain-error';
import { checked, violatedFields } from '../../test/support/violated-fields';
import { MAX_TAGS, tagsOf } from './stream-tags';

const normalizeTags = (tags: string[] | undefined) =>
  checked((violations) => tagsOf(tags, 'streamTags', violations));

const tags = (n: number): string[] => Array.from({ length: n }, (_, i) => `tag-${i}`);

describe('normalizeTags', () => {
  it('is an empty set when absent', () => {
    expect(normalizeTags(undefined)).toEqual([]);
  });

  it('drops duplicates and keeps the first order', () => {
    expect(normalizeTags(['b', 'a', 'b', 'c', 'a'])).toEqual(['b', 'a', 'c']);
  });

  it('accepts 128 tags and rejects 129', () => {
    expect(normalizeTags(tags(MAX_TAGS))).toHaveLength(MAX_TAGS);
    expect(() => normalizeTags(tags(MAX_TAGS + 1))).toThrow(InvalidRequestError);
  });

  it('counts distinct tags only', () => {
    expect(normalizeTags([...tags(MAX_TAGS), 'tag-0'])).toHaveLength(MAX_TAGS);
  });

  it('rejects a tag holding NUL, which text cannot store', () => {
    expect(violatedFields(() => normalizeTags(['fine', 'a\u0000b']))).toEqual(['streamTags[1]']);
  });

  it('accepts a 256-character tag and rejects 257 and empty ones, naming the index', () => {
    expect(normalizeTags(['x'.repeat(256)])).toEqual(['x'.repeat(256)]);
    expect(violatedFields(() => normalizeTags(['ok', 'x'.repeat(257), '']))).toEqual([
      'streamTags[1]',
      'streamTags[2]',
    ]);
  });
});
