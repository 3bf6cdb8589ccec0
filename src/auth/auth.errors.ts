import { DomainError } from '../common/errors/domain-error';

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
  readonly code = 'UNAUTHENTICATED';

  constructor() {
    super('Valid credentials are required (HTTP Basic)');
  }
}

export class PermissionDeniedError extends DomainError {
  readonly kind = 'forbidden';
  readonly code = 'PERMISSION_DENIED';

  constructor(permission: string, resource: string) {
    super(`${permission} on ${resource} is required`);
  }
}

export class TooManyAuthFailuresError extends DomainError {
  readonly kind = 'too-many-requests';
  readonly code = 'TOO_MANY_AUTH_FAILURES';

  constructor(override readonly retryAfterSeconds: number) {
    super('Too many failed logins from this client; retry later');
  }
}
