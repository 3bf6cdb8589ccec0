import { mayRead, Principal } from '../auth/principal';
import { streamResource } from '../auth/resources';
import { FieldViolation, InvalidRequestError } from '../common/domain-error';
import { scopeNameProblem, streamNameProblem } from '../common/names';

/** A stream named from a reader group: `stream` (the group's scope) or `scope/stream`. */
export interface StreamRef {
  scope: string;
  stream: string;
}

/** The most streams one reader group may read. */
export const MAX_GROUP_STREAMS = 1000;

export const scopedName = (ref: StreamRef): string => `${ref.scope}/${ref.stream}`;

/** A scoped name as stored and answered (`scope/stream`; names hold no `/`). */
export function fromScopedName(name: string): StreamRef {
  const slash = name.indexOf('/');
  return { scope: name.slice(0, slash), stream: name.slice(slash + 1) };
}

/** Whether the caller may read a stream named as stored (`scope/stream`): see {@link mayRead}. */
export function mayReadStream(access: Principal | undefined, name: string): boolean {
  const { scope, stream } = fromScopedName(name);
  return mayRead(access, streamResource(scope, stream));
}

/** A name as a group is given it, its scope filled in; undefined when it has more than one `/`. */
function splitRef(ref: string, groupScope: string): StreamRef | undefined {
  const parts = ref.split('/');
  if (parts.length > 2) return undefined;
  const [scope, stream] = parts.length === 2 ? parts : [groupScope, ref];
  return { scope, stream };
}

/** Reads the streams of a reader group, in order, without duplicates. */
export function toStreamRefs(
  refs: readonly string[],
  groupScope: string,
  path = 'streams',
): StreamRef[] {
  const violations: FieldViolation[] = [];
  const parsed = refs.map((ref, i) => {
    const split = splitRef(ref, groupScope);
    if (!split) {
      violations.push({ field: `${path}[${i}]`, message: 'must be "stream" or "scope/stream"' });
      return { scope: groupScope, stream: ref };
    }
    const problem =
      (ref.includes('/') ? scopeNameProblem(split.scope) : undefined) ??
      streamNameProblem(split.stream);
    if (problem) violations.push({ field: `${path}[${i}]`, message: problem });
    return split;
  });
  if (violations.length > 0) throw new InvalidRequestError(violations);
  const seen = new Set<string>();
  return parsed.filter((ref) => !seen.has(scopedName(ref)) && seen.add(scopedName(ref)));
}

/**
 * The streams the body of a reader-group create names, read before the body is validated (to
 * ask for their permission first): anything but a list of at most {@link MAX_GROUP_STREAMS}
 * strings names nothing, and so does a string with more than one `/`; the validation refuses
 * them after.
 */
export function streamsNamed(body: unknown, groupScope: string): StreamRef[] {
  const streams = (body as { streams?: unknown } | null)?.streams;
  if (!Array.isArray(streams) || streams.length > MAX_GROUP_STREAMS) return [];
  return streams.flatMap((ref) => {
    const split = typeof ref === 'string' ? splitRef(ref, groupScope) : undefined;
    return split ? [split] : [];
  });
}
