import { DomainError } from '../common/domain-error';

export class ScopeNotFoundError extends DomainError {
  readonly kind = 'not-found';
  readonly code = 'SCOPE_NOT_FOUND';

  constructor(scope: string) {
    super(`Scope ${scope} does not exist`);
  }
}

export class ScopeExistsError extends DomainError {
  readonly kind = 'conflict';
  readonly code = 'SCOPE_EXISTS';

  constructor(scope: string) {
    super(`Scope ${scope} already exists`);
  }
}

export class ScopeNotEmptyError extends DomainError {
  readonly kind = 'precondition';
  readonly code = 'SCOPE_NOT_EMPTY';

  constructor(scope: string) {
    super(`Scope ${scope} still holds streams or reader groups`);
  }
}
