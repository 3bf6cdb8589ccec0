import { FieldViolation, InvalidRequestError } from '../common/domain-error';
import { scopeNameProblem, streamNameProblem } from '../common/names';

/** A stream named from a reader group: `stream` (the group's scope) or `scope/stream`. */
export interface StreamRef {
  scope: string;
  stream: string;
}

export const scopedName = (ref: StreamRef): string => `${ref.scope}/${ref.stream}`;

/** Reads the streams of a reader group, in order, without duplicates. */
export function toStreamRefs(
  refs: readonly string[],
  groupScope: string,
  path = 'streams',
): StreamRef[] {
  const violations: FieldViolation[] = [];
  const parsed = refs.map((ref, i) => {
    const parts = ref.split('/');
    const [scope, stream] = parts.length === 2 ? parts : [groupScope, ref];
    const problem =
      parts.length > 2
        ? 'must be "stream" or "scope/stream"'
        : ((parts.length === 2 ? scopeNameProblem(scope) : undefined) ?? streamNameProblem(stream));
    if (problem) violations.push({ field: `${path}[${i}]`, message: problem });
    return { scope, stream };
  });
  if (violations.length > 0) throw new InvalidRequestError(violations);
  const seen = new Set<string>();
  return parsed.filter((ref) => !seen.has(scopedName(ref)) && seen.add(scopedName(ref)));
}
