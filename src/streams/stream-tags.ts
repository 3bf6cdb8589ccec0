import { FieldViolation } from '../common/errors/domain-error';

export const MAX_TAGS = 128;
export const MAX_TAG_LENGTH = 256;

/** Why a tag is not acceptable, or undefined: 1..256 characters, and no NUL (text cannot hold it). */
export function tagProblem(tag: string): string | undefined {
  if (tag.length < 1 || tag.length > MAX_TAG_LENGTH) {
    return `must be 1 to ${MAX_TAG_LENGTH} characters long`;
  }
  if (tag.includes('\u0000')) return 'must not contain the NUL character';
  return undefined;
}

/**
 * The tag set of a stream: duplicates dropped (first occurrence kept), at most 128 acceptable
 * tags, problems into `violations`. Absent tags are an empty set; tags of the wrong type are
 * the shape's to report.
 */
export function tagsOf(tags: unknown, path: string, violations: FieldViolation[]): string[] {
  if (!Array.isArray(tags)) return [];
  const unique = [...new Set(tags as unknown[])];
  unique.forEach((tag) => {
    const problem = typeof tag === 'string' ? tagProblem(tag) : undefined;
    if (problem) violations.push({ field: `${path}[${tags.indexOf(tag)}]`, message: problem });
  });
  if (unique.length > MAX_TAGS) {
    violations.push({ field: path, message: `must hold at most ${MAX_TAGS} distinct tags` });
  }
  return unique.filter((tag): tag is string => typeof tag === 'string');
}
