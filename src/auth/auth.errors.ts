import { DomainError, MissingPermission } from '../common/domain-error';

/** A 401's challenge for bearer tokens (RFC 6750); `error` names what was wrong with one. */
export const bearerChallenge = (error?: 'invalid_token'): string =>
  `Bearer realm="tributary"${error ? `, error="${error}"` : ''}`;

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
  readonly code = 'UNAUTHENTICATED';

  /** `challenges`: what the service accepts, when not only HTTP Basic. */
  constructor(override readonly challenges?: string[]) {
    super(
      challenges
        ? 'Valid credentials are required (HTTP Basic or a bearer token)'
        : 'Valid credentials are required (HTTP Basic)',
    );
  }
}

/** A bearer token that is not valid here (docs/extensions.md section 9); `reason` says why. */
export class InvalidTokenError extends DomainError {
  readonly kind = 'unauthenticated';
  readonly code = 'INVALID_TOKEN';
  override readonly challenges = [bearerChallenge('invalid_token')];

  constructor(readonly reason: string) {
    super(`The bearer token is not valid: ${reason}`);
  }
}

/** The provider's keys are not known yet and cannot be fetched now: a token cannot be checked. */
export class IssuerUnavailableError extends DomainError {
  readonly kind = 'unavailable';
  readonly code = 'ISSUER_UNAVAILABLE';
  override readonly retryAfterSeconds = 5;

  constructor(reason: string) {
    super(`Bearer tokens cannot be checked now: ${reason}; retry later`);
  }
}

export class PermissionDeniedError extends DomainError {
  readonly kind = 'forbidden';
  readonly code = 'PERMISSION_DENIED';

  constructor(override readonly missing: MissingPermission[]) {
    const each = missing.map(({ permission, resource }) => `${permission} on ${resource}`);
    super(`${each.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required`);
  }
}

export class TooManyAuthFailuresError extends DomainError {
  readonly kind = 'too-many-requests';
  readonly code = 'TOO_MANY_AUTH_FAILURES';

  constructor(override readonly retryAfterSeconds: number) {
    super('Too many failed logins from this client; retry later');
  }
}
