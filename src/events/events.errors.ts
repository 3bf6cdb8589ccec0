import { DomainError } from '../common/domain-error';

/** Events after the position were deleted (older than EVENTS_RETENTION_HOURS): 410. */
export class FeedPositionExpiredError extends DomainError {
  readonly kind = 'gone';
  readonly code = 'FEED_POSITION_EXPIRED';

  constructor(since: bigint, oldest: bigint) {
    super(
      `events after ${since} are no longer kept (the oldest kept is ${oldest}): ` +
        'list again and follow from a fresh position',
    );
  }
}

/** Every stream this instance may hold is open: 503, to retry (on any instance). */
export class TooManyStreamsError extends DomainError {
  readonly kind = 'unavailable';
  readonly code = 'TOO_MANY_STREAMS';
  override readonly retryAfterSeconds = 5;

  constructor(max: number) {
    super(`this instance already sends ${max} event streams (EVENTS_MAX_STREAMS); retry later`);
  }
}

/** The instance is stopping: a stream opened now would end at once. */
export class FeedStoppingError extends DomainError {
  readonly kind = 'unavailable';
  readonly code = 'SHUTTING_DOWN';
  override readonly retryAfterSeconds = 1;

  constructor() {
    super('this instance is stopping; follow the feed on another');
  }
}

/** A bearer token that expired while its holder followed the feed. */
export class TokenExpiredWhileWatchingError extends DomainError {
  readonly kind = 'unauthenticated';
  readonly code = 'INVALID_TOKEN';

  constructor() {
    super('the bearer token expired');
  }
}
