/**
 * A contributor path from a wildcard route parameter: `/health/memory/heap` and
 * `/health/memory%2Fheap` both name `['memory', 'heap']`.
 */
export const contributorPath = (segments: string[] | string): string[] =>
  [segments].flat().flatMap((segment) => segment.split('/'));
