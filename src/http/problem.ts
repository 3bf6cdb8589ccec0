import { HttpException, HttpStatus } from '@nestjs/common';
import {
  DomainError,
  DomainErrorKind,
  FieldViolation,
  InvalidRequestError,
  MissingPermission,
  ResourceConflict,
} from '../common/domain-error';
import { isDatabaseUnavailable, PgCode, sqlState } from '../database/postgres-errors';

/** An error as the client sees it: an RFC 9457 problem document plus its HTTP status. */
export interface Problem {
  status: number;
  code: string;
  detail: string;
  violations?: FieldViolation[];
  conflicts?: ResourceConflict[];
  /** The permissions a 403 found missing, each on its resource. */
  missing?: MissingPermission[];
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

/** Maps anything thrown while serving a request to what the client is told. */
export function toProblem(error: unknown): Problem {
  if (error instanceof ReplayedProblem) return error.problem;
  if (error instanceof DomainError) {
    const problem: Problem = {
      status: STATUS_OF_KIND[error.kind],
      code: error.code,
      detail: error.message,
      retryAfter: error.retryAfterSeconds,
      conflicts: error.conflicts,
      missing: error.missing,
      challenges: error.challenges,
    };
    if (error instanceof InvalidRequestError) problem.violations = error.violations;
    return problem;
  }
  if (error instanceof HttpException) return httpExceptionProblem(error);
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
