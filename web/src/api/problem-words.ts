import { missingWords } from './access-words';
import type { PolicyViolation } from './types';

/** What the console needs of a problem document (RFC 9457) the API answered. */
export interface ProblemFacts {
  code?: string;
  detail?: string;
  errors?: { field: string; message: string }[];
  conflicts?: { resource: string; message: string }[];
  /** A 403's missing permissions, each on its resource. */
  missing?: { permission: string; resource: string }[];
  /** A 422 `POLICY_VIOLATION`'s broken rules of the scope's policy. */
  violations?: PolicyViolation[];
}

/** Status 0: the request never got an answer (the service is down or the network is). */
export const UNREACHABLE = 0;

/** What the page says while its reads wait for the database to come back. */
export const DATABASE_UNAVAILABLE_WORDS = 'The service cannot reach its database, retrying';

/** A change refused for the same reason: changes are not retried by themselves. */
const DATABASE_UNAVAILABLE_FOR_A_CHANGE =
  'The service cannot reach its database: try again in a moment.';

/** The codes whose plain words say more than the service's detail does. */
const WORDS: Record<string, string> = {
  SCOPE_NOT_EMPTY: 'The scope still has streams: delete them (and its reader groups) first.',
  STREAM_NOT_SEALED: 'The stream is not sealed: seal it before deleting it.',
  STREAM_SEALED: 'The stream is sealed: a sealed stream cannot be changed.',
  STREAM_INTERNAL: 'Internal streams cannot be changed directly.',
  PRECONDITION_FAILED: 'Someone else changed it since you opened it.',
  SCOPE_EXISTS: 'A scope with this name already exists.',
  STREAM_EXISTS: 'A stream with this name already exists in the scope.',
  READER_GROUP_EXISTS: 'A reader group with this name already exists in the scope.',
  READER_NOT_ONLINE: 'That reader is not online.',
  UNAUTHENTICATED: 'Sign in to continue.',
  TOO_MANY_AUTH_FAILURES:
    'Too many failed sign-ins from this address: wait a minute, then try again.',
  DATABASE_UNAVAILABLE: DATABASE_UNAVAILABLE_FOR_A_CHANGE,
  CONCURRENT_UPDATE: 'A change made at the same moment got in the way: try again.',
};

/**
 * A problem in a person's words: the console asks for problem documents on every request (the
 * contract's 404, 409 and 412 are otherwise empty), so the code and the service's detail are
 * there to explain it.
 */
export function describeProblem(status: number, problem: ProblemFacts | undefined): string {
  if (status === UNREACHABLE) return 'The service cannot be reached: is it running?';
  const code = problem?.code;
  if (status === 403 && problem?.missing?.length) {
    return `You may not do this: it needs ${problem.missing.map(missingWords).join(', ')}.`;
  }
  if (code === 'PERMISSION_DENIED' || (status === 403 && problem?.detail)) {
    return `You may not do this: ${problem?.detail ?? 'a permission is missing'}.`;
  }
  if (code && WORDS[code]) return WORDS[code];
  if (code === 'POLICY_VIOLATION') {
    const details = problem?.violations?.map((violation) => violation.detail) ?? [];
    return `The scope's policy does not allow this${details.length ? `: ${details.join(' ')}` : '.'}`;
  }
  if (code === 'APPLY_CONFLICT' && problem?.conflicts?.length) {
    return `The document conflicts with what exists: ${problem.conflicts
      .map((conflict) => conflict.message)
      .join('; ')}.`;
  }
  if (status === 503) return DATABASE_UNAVAILABLE_FOR_A_CHANGE;
  if (problem?.detail) return problem.detail;
  return `The service answered ${status} without saying why.`;
}

/**
 * The 400's field errors keyed by the field's path in the request (`scalingPolicy.minSegments`);
 * an element of a list counts for the list (`streamTags[3]` is `streamTags`).
 */
export function fieldErrors(problem: ProblemFacts | undefined): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const { field, message } of problem?.errors ?? []) {
    const path = field.replace(/\[\d+\]$/, '');
    byField[path] = byField[path] ? `${byField[path]}; ${message}` : message;
  }
  return byField;
}
