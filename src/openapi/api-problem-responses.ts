import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiResponse,
  getSchemaPath,
  HeadersObject,
  ResponseObject,
} from '@nestjs/swagger';
import { PROBLEM_JSON, problemTitle, problemType } from '../http/global-exception.filter';
import { ProblemDocumentDto } from '../http/problem-document.dto';

interface ProblemResponse {
  /** What the status means in this service, whichever operation answers it. */
  meaning: string;
  /** A typical problem document of that status. */
  example: Pick<ProblemDocumentDto, 'code' | 'detail' | 'instance' | 'errors'>;
}

const PROBLEM_RESPONSES: Record<number, ProblemResponse> = {
  400: {
    meaning:
      'Invalid request: malformed JSON, a wrong type or value, a missing field, or a malformed ' +
      'percent-encoding in the path. The problem document names each invalid field in `errors`.',
    example: {
      code: 'INVALID_REQUEST',
      detail: 'scalingPolicy.minSegments: minSegments must not be less than 1',
      instance: '/v1/scopes/sales/streams',
      errors: [
        { field: 'scalingPolicy.minSegments', message: 'minSegments must not be less than 1' },
      ],
    },
  },
  404: {
    meaning:
      'Not found: a scope, stream, reader group, reader or health contributor named in the ' +
      'path does not exist (`code` says which).',
    example: {
      code: 'SCOPE_NOT_FOUND',
      detail: 'Scope sales does not exist',
      instance: '/v1/scopes/sales',
    },
  },
  409: {
    meaning: 'Conflict: a resource with that name already exists.',
    example: {
      code: 'SCOPE_EXISTS',
      detail: 'Scope sales already exists',
      instance: '/v1/scopes',
    },
  },
  412: {
    meaning:
      'Precondition failed: the scope is not empty (`SCOPE_NOT_EMPTY`), the stream is not ' +
      'sealed (`STREAM_NOT_SEALED`) or is sealed (`STREAM_SEALED`), the stream is internal ' +
      'and managed by the service (`STREAM_INTERNAL`), or `If-Match` names no current entity ' +
      'tag (`PRECONDITION_FAILED`).',
    example: {
      code: 'STREAM_NOT_SEALED',
      detail: 'Stream sales/orders must be sealed before it is deleted',
      instance: '/v1/scopes/sales/streams/orders',
    },
  },
  410: {
    meaning:
      'Gone: the change feed no longer keeps the events after `since` (older than ' +
      '`EVENTS_RETENTION_HOURS`): list again and follow from a fresh position.',
    example: {
      code: 'FEED_POSITION_EXPIRED',
      detail:
        'events after 12 are no longer kept (the oldest kept is 4711): list again and follow ' +
        'from a fresh position',
      instance: '/v1/events?since=12',
    },
  },
  422: {
    meaning:
      "The change breaks a rule of its scope's policy (`POLICY_VIOLATION`: `violations` lists " +
      'every rule it breaks), or the `Idempotency-Key` was used before, by the same account, for ' +
      'another request (another path or body) (`IDEMPOTENCY_KEY_REUSED`); nothing was done.',
    example: {
      code: 'IDEMPOTENCY_KEY_REUSED',
      detail: 'Idempotency-Key 5f0c2a was used for another request (another path or body)',
      instance: '/v1/scopes',
    },
  },
  413: {
    meaning: 'The request body is larger than the configured limit (`MAX_BODY_BYTES`).',
    example: {
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'The request body exceeds 1048576 bytes',
      instance: '/v1/scopes',
    },
  },
  415: {
    meaning: 'The request body is not UTF-8 JSON (`application/json` or `application/*+json`).',
    example: {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      detail: 'The request body must be application/json',
      instance: '/v1/scopes',
    },
  },
  401: {
    meaning:
      'With authentication on (`AUTH_ENABLED`): credentials are missing or wrong. ' +
      '`WWW-Authenticate` asks for HTTP Basic.',
    example: {
      code: 'UNAUTHENTICATED',
      detail: 'Valid credentials are required (HTTP Basic)',
      instance: '/v1/scopes',
    },
  },
  403: {
    meaning:
      'With authentication on: the account lacks the permission this operation needs on ' +
      'its resource (`prn::/scope:S/stream:T`, ...).',
    example: {
      code: 'PERMISSION_DENIED',
      detail: 'READ_UPDATE on prn::/ is required',
      instance: '/v1/scopes',
    },
  },
  429: {
    meaning:
      'Too many requests from this client (`RATE_LIMIT_PER_MINUTE`), or too many failed ' +
      'logins (`AUTH_MAX_FAILURES`); retry after `Retry-After` seconds.',
    example: {
      code: 'TOO_MANY_AUTH_FAILURES',
      detail: 'Too many failed logins from this client; retry later',
      instance: '/v1/scopes',
    },
  },
  500: {
    meaning: 'Internal error: a bug, logged with the request id; no internals are revealed.',
    example: {
      code: 'INTERNAL_ERROR',
      detail: 'An internal error occurred',
      instance: '/v1/scopes',
    },
  },
  503: {
    meaning:
      'The database is unreachable or timed out, or a concurrent change interfered; retry ' +
      'after `Retry-After` seconds.',
    example: {
      code: 'DATABASE_UNAVAILABLE',
      detail: 'The database is unavailable; retry later',
      instance: '/v1/scopes',
    },
  },
};

/** These always carry a problem document; the others only when the request asks for one. */
const ALWAYS_A_PROBLEM = new Set([400, 401, 403, 410, 413, 415, 422, 429, 503]);
const ON_REQUEST =
  " The body is empty unless the request's `Accept` includes `application/problem+json`; " +
  'then it is a problem document.';

export const RETRY_AFTER: HeadersObject = {
  'Retry-After': {
    description: 'Seconds after which a retry may succeed.',
    schema: { type: 'integer', format: 'int32' },
  },
};

const CHALLENGE: HeadersObject = {
  'WWW-Authenticate': {
    description: 'The challenge: `Basic realm="tributary", charset="UTF-8"`.',
    schema: { type: 'string' },
  },
};

/** What any operation may answer when authentication or rate limits are on. */
export const ACCESS_STATUSES = [401, 403, 429];

/** The response object of a problem status, as it stands in the document. */
export function problemResponseObject(status: number): ResponseObject {
  const described = PROBLEM_RESPONSES[status];
  if (!described) throw new Error(`ApiProblemResponses: no problem response for ${status}`);
  const { meaning, example } = described;
  return {
    description: ALWAYS_A_PROBLEM.has(status) ? meaning : meaning + ON_REQUEST,
    content: {
      [PROBLEM_JSON]: {
        schema: { $ref: getSchemaPath(ProblemDocumentDto) },
        example: {
          type: problemType(example.code),
          title: problemTitle(status),
          status,
          ...example,
          requestId: '0b6f3c1e-2f4a-4d0e-9a51-4f3e2b1c0d9a',
        },
      },
    },
    ...(status === 503 || status === 429 ? { headers: RETRY_AFTER } : {}),
    ...(status === 401 ? { headers: CHALLENGE } : {}),
  };
}

export function problemResponse(status: number): Parameters<typeof ApiResponse>[0] {
  return { status, ...problemResponseObject(status) };
}

/**
 * Documents the error responses an operation can give, with the `Problem` schema under
 * `application/problem+json`: 400, 413, 415 and 503 always carry it; 404, 409, 412 and 500
 * have an empty body unless the request's `Accept` asks for it (the contract declares them
 * bodiless). 503 also names its `Retry-After` header.
 *
 * @example `@ApiProblemResponses(400, 404, 409, 413, 415, 500, 503)`
 */
export function ApiProblemResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDocumentDto),
    ...statuses.map((status) => ApiResponse(problemResponse(status))),
  );
}

/**
 * Names the problem codes that one operation answers with `status`, beside what the status
 * means for every operation (the two descriptions are joined in the document).
 *
 * @example `@ApiProblemCodes(412, { SEGMENT_NOT_ACTIVE: 'a segment to seal is not active' })`
 */
export const ApiProblemCodes = (status: number, codes: Record<string, string>): MethodDecorator =>
  ApiResponse({
    status,
    description:
      'This operation: ' +
      Object.entries(codes)
        .map(([code, meaning]) => `\`${code}\` ${meaning}`)
        .join('; ') +
      '.',
  });
