import { DomainError } from '../common/domain-error';

export class IdempotencyKeyReusedError extends DomainError {
  readonly kind = 'unprocessable';
  readonly code = 'IDEMPOTENCY_KEY_REUSED';

  constructor(key: string) {
    super(`Idempotency-Key ${key} was used for another request (another path or body)`);
  }
}

export class IdempotencyKeyInUseError extends DomainError {
  readonly kind = 'conflict';
  readonly code = 'IDEMPOTENCY_KEY_IN_USE';
  override readonly retryAfterSeconds = 1;

  constructor(key: string) {
    super(`A request with Idempotency-Key ${key} is still running; retry later`);
  }
}
