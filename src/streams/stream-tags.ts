import { FieldViolation, InvalidRequestError } from '../common/errors/domain-error';

export const MAX_TAGS = 128;
export const MAX_TAG_LENGTH = 256;

/**
 * The tag set of a stream: duplicates dropped (first occurrence kept), at most 128 tags of
 * 1..256 characters. Absent tags are an empty set.
 */
export function normalizeTags(tags: readonly string[] | undefined, path = 'streamTags'): string[] {
  const unique = [...new Set(tags ?? [])];
  const violations: FieldViolation[] = [];
  unique.forEach((tag) => {
    if (tag.length < 1 || tag.length > MAX_TAG_LENGTH) {
      const index = tags!.indexOf(tag);
      violations.push({
        field: `${path}[${index}]`,
        message: `must be 1 to ${MAX_TAG_LENGTH} characters long`,
      });
    }
  });
  if (unique.length > MAX_TAGS) {
    violations.push({ field: path, message: `must hold at most ${MAX_TAGS} distinct tags` });
  }
  if (violations.length > 0) throw new InvalidRequestError(violations);
  return unique;
}
