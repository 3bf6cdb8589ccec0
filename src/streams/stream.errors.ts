import { DomainError } from '../common/domain-error';

export class StreamNotFoundError extends DomainError {
  readonly kind = 'not-found';
  readonly code = 'STREAM_NOT_FOUND';

  constructor(scope: string, stream: string) {
    super(`Stream ${scope}/${stream} does not exist`);
  }
}

export class StreamExistsError extends DomainError {
  readonly kind = 'conflict';
  readonly code = 'STREAM_EXISTS';

  constructor(scope: string, stream: string) {
    super(`Stream ${scope}/${stream} already exists`);
  }
}

export class StreamNotSealedError extends DomainError {
  readonly kind = 'precondition';
  readonly code = 'STREAM_NOT_SEALED';

  constructor(scope: string, stream: string) {
    super(`Stream ${scope}/${stream} must be sealed before it is deleted`);
  }
}

export class StreamSealedError extends DomainError {
  readonly kind = 'precondition';
  readonly code = 'STREAM_SEALED';

  constructor(scope: string, stream: string, change = 'updated') {
    super(`Stream ${scope}/${stream} is sealed and cannot be ${change}`);
  }
}

/** Internal streams (`_MARK...`, `_RG...`) are managed with the stream or group they serve. */
export class InternalStreamError extends DomainError {
  readonly kind = 'precondition';
  readonly code = 'STREAM_INTERNAL';

  constructor(scope: string, stream: string) {
    super(`Stream ${scope}/${stream} is internal and is managed by the service`);
  }
}

/** A number the stream never gave a segment (docs/extensions.md section 7). */
export class SegmentNotFoundError extends DomainError {
  readonly kind = 'not-found';
  readonly code = 'SEGMENT_NOT_FOUND';

  constructor(scope: string, stream: string, number: number) {
    super(`Stream ${scope}/${stream} has no segment ${number}`);
  }
}
