import { listed } from './bounded-text';

/**
 * What kind of failure a domain error is. Services speak in these; only the exception filter
 * turns them into HTTP statuses.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'not-found'
  | 'gone'
  | 'conflict'
  | 'precondition'
  | 'unprocessable'
  | 'unsupported-media-type'
  | 'payload-too-large'
  | 'unauthenticated'
  | 'forbidden'
  | 'too-many-requests'
  | 'unavailable';

/** A resource that stops a whole request, and why (the `conflicts` of a problem document). */
export interface ResourceConflict {
  resource: string;
  message: string;
}

/** A permission a request needed on a resource and the caller lacks (the `missing` of a 403). */
export interface MissingPermission {
  permission: string;
  resource: string;
}

/** A field of a request that failed validation, named by its path (`scalingPolicy.minSegments`). */
export interface FieldViolation {
  field: string;
  message: string;
}

/**
 * A rule of a scope's policy that a change would break (the `violations` of a 422): the rule's
 * field, the policy's value, what the change would make it, and the resource it concerns when a
 * request changes several.
 */
export interface RuleViolation {
  rule: string;
  limit: unknown;
  actual?: unknown;
  detail: string;
  resource?: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  /** A stable, machine-readable code such as `SCOPE_NOT_EMPTY`. */
  abstract readonly code: string;
  /** Seconds after which the same request may succeed (sent as `Retry-After`). */
  readonly retryAfterSeconds?: number;
  /** Each resource that stopped the request, when there may be several. */
  readonly conflicts?: ResourceConflict[];
  /** The challenges of a 401 (`WWW-Authenticate`), when not the default Basic one. */
  readonly challenges?: string[];
  /** The permissions the caller lacks, each on its resource (a 403). */
  readonly missing?: MissingPermission[];
  /** The rules of a policy the change would break, every one (a 422). */
  readonly ruleViolations?: RuleViolation[];

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * A request that breaks the rules of the API; `violations` names each invalid field (the message
 * only the first few: a hostile body can break a rule a million times).
 */
export class InvalidRequestError extends DomainError {
  readonly kind = 'invalid';
  readonly code = 'INVALID_REQUEST';

  constructor(readonly violations: FieldViolation[]) {
    super(listed(violations, (v) => `${v.field}: ${v.message}`, '; '));
  }

  static of(field: string, message: string): InvalidRequestError {
    return new InvalidRequestError([{ field, message }]);
  }
}

export class MalformedBodyError extends DomainError {
  readonly kind = 'invalid';
  readonly code = 'MALFORMED_BODY';
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly kind = 'unsupported-media-type';
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
}

export class PayloadTooLargeError extends DomainError {
  readonly kind = 'payload-too-large';
  readonly code = 'PAYLOAD_TOO_LARGE';
}
