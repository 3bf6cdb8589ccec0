import { repeatsIn } from '../common/list-elements';

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
 * Why the tag at `index` of a request's tags is refused. A tag listed twice is judged once, at
 * its first place; one that is not a string is the shape's to report. The repeats are found
 * once per list, so judging every tag costs the length of the list.
 */
export function tagAtProblem(
  tag: unknown,
  index: number,
  tags: readonly unknown[],
): string | undefined {
  return typeof tag === 'string' && !repeatsIn(tags).has(index) ? tagProblem(tag) : undefined;
}

/** How many tags a request's tags make once duplicates are dropped. */
export const distinctTagCount = (tags: readonly unknown[]): number => new Set(tags).size;

/** The tag set of a stream: duplicates dropped, the first occurrence kept. Absent: empty. */
export const tagsOf = (tags: readonly string[] | undefined | null): string[] => [
  ...new Set(tags ?? []),
];
