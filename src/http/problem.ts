import { HttpException, HttpStatus } from '@nestjs/common';
import { clipText } from '../common/bounded-text';
import {
  DomainError,
  DomainErrorKind,
  FieldViolation,
  InvalidRequestError,
  MissingPermission,
  ResourceConflict,
  RuleViolation,
} from '../common/domain-error';
import { isDatabaseUnavailable, PgCode, sqlState } from '../database/postgres-errors';
import { limitPassedAtCommit } from '../policies/limit-passed-at-commit';

/** An error as the client sees it: an RFC 9457 problem document plus its HTTP status. */
export interface Problem {
  status: number;
  code: string;
  detail: string;
  violations?: FieldViolation[];
  conflicts?: ResourceConflict[];
  /** The permissions a 403 found missing, each on its resource. */
  missing?: MissingPermission[];
  /** The rules of a policy a refused change would break (a 422's `violations`). */
  ruleViolations?: RuleViolation[];
  /**
   * How many entries of `violations`, `conflicts`, `missing` and `ruleViolations` were left out
   * (see `bounded`).
   */
  more?: number;
  /** Seconds after which a retry may succeed (503). */
  retryAfter?: number;
  /** What a 401 asks for (`WWW-Authenticate`), when not HTTP Basic. */
  challenges?: string[];
  /** Whether the failure is a bug worth logging with its stack. */
  unexpected?: boolean;
  /** The request that first got this answer, when it is given again (an idempotent replay). */
  requestId?: string;
}

/** An answer given before, given again as it was (see the idempotency interceptor). */
export class ReplayedProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
    this.name = ReplayedProblem.name;
  }
}

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: HttpStatus.BAD_REQUEST,
  'not-found': HttpStatus.NOT_FOUND,
  gone: HttpStatus.GONE,
  conflict: HttpStatus.CONFLICT,
  precondition: HttpStatus.PRECONDITION_FAILED,
  unprocessable: HttpStatus.UNPROCESSABLE_ENTITY,
  'unsupported-media-type': HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  'payload-too-large': HttpStatus.PAYLOAD_TOO_LARGE,
  unauthenticated: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  'too-many-requests': HttpStatus.TOO_MANY_REQUESTS,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
};

const RETRY_AFTER_SECONDS = 1;

function httpExceptionProblem(error: HttpException): Problem {
  const status = error.getStatus();
  const code = HttpStatus[status] ?? 'ERROR';
  return { status, code, detail: status === 404 ? 'No such resource' : error.message };
}

/** The most entries a problem document lists, over `errors`, `conflicts` and `missing`. */
export const MAX_PROBLEM_ENTRIES = 100;
/** The most bytes (as JSON, in UTF-8) of its `detail`, and of any one string of an entry. */
export const MAX_DETAIL_BYTES = 2048;
export const MAX_ENTRY_STRING_BYTES = 1024;
/** The most bytes its entries take together, so that the whole document stays under 64 KiB. */
export const MAX_ENTRIES_BYTES = 48 * 1024;

/** An entry of a problem's lists, every string of it clipped, and what it takes as JSON. */
function clippedEntry<T extends object>(entry: T): { entry: T; bytes: number } {
  let bytes = 2;
  const clipped = Object.fromEntries(
    Object.entries(entry).map(([key, value]: [string, unknown]) => {
      const kept = typeof value === 'string' ? clipText(value, MAX_ENTRY_STRING_BYTES) : value;
      bytes += key.length + 4 + Buffer.byteLength(JSON.stringify(kept) ?? '');
      return [key, kept];
    }),
  ) as T;
  return { entry: clipped, bytes };
}

/**
 * A problem small enough to send, whatever the request was: at most {@link MAX_PROBLEM_ENTRIES}
 * entries in its lists (and within {@link MAX_ENTRIES_BYTES}), `more` counting those left out;
 * its strings clipped. A body that breaks a rule a million times is told the first hundred
 * (docs/behaviour.md section 2, Error bodies).
 */
export function bounded(problem: Problem): Problem {
  let entriesLeft = MAX_PROBLEM_ENTRIES;
  let bytesLeft = MAX_ENTRIES_BYTES;
  let more = problem.more ?? 0;
  const keep = <T extends object>(list: T[] | undefined): T[] | undefined => {
    if (list === undefined) return undefined;
    const kept: T[] = [];
    for (const item of list.slice(0, entriesLeft)) {
      const { entry, bytes } = clippedEntry(item);
      if (bytes > bytesLeft) break;
      kept.push(entry);
      bytesLeft -= bytes;
    }
    entriesLeft -= kept.length;
    more += list.length - kept.length;
    return kept;
  };
  const result: Problem = {
    ...problem,
    detail: clipText(problem.detail, MAX_DETAIL_BYTES),
    violations: keep(problem.violations),
    conflicts: keep(problem.conflicts),
    missing: keep(problem.missing),
    ruleViolations: keep(problem.ruleViolations),
  };
  if (more > 0) result.more = more;
  return result;
}

/** Maps anything thrown while serving a request to what the client is told, bounded in size. */
export function toProblem(error: unknown): Problem {
  return bounded(problemOf(error));
}

function problemOf(error: unknown): Problem {
  if (error instanceof ReplayedProblem) return error.problem;
  if (error instanceof DomainError) {
    const problem: Problem = {
      status: STATUS_OF_KIND[error.kind],
      code: error.code,
      detail: error.message,
      retryAfter: error.retryAfterSeconds,
      conflicts: error.conflicts,
      missing: error.missing,
      ruleViolations: error.ruleViolations,
      challenges: error.challenges,
    };
    if (error instanceof InvalidRequestError) problem.violations = error.violations;
    return problem;
  }
  if (error instanceof HttpException) return httpExceptionProblem(error);
  const refusedAtCommit = limitPassedAtCommit(error);
  if (refusedAtCommit) return problemOf(refusedAtCommit);
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      code: 'DATABASE_UNAVAILABLE',
      detail: 'The database is unavailable; retry later',
      retryAfter: RETRY_AFTER_SECONDS,
    };
  }
  switch (sqlState(error)) {
    case PgCode.serializationFailure:
    case PgCode.deadlockDetected:
      return {
        status: 503,
        code: 'CONCURRENT_UPDATE',
        detail: 'A concurrent change interfered; retry',
        retryAfter: RETRY_AFTER_SECONDS,
      };
  }
  return {
    status: 500,
    code: 'INTERNAL_ERROR',
    detail: 'An internal error occurred',
    unexpected: true,
  };
}
