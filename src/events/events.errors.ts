import { DomainError } from '../common/domain-error';
import type { SlotRefusal } from './watcher-slots';

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

/**
 * Every stream this instance may hold is open (EVENTS_MAX_STREAMS), or every one its client may
 * hold (EVENTS_MAX_STREAMS_PER_CLIENT): 503, to retry (on any instance).
 */
export class TooManyStreamsError extends DomainError {
  readonly kind = 'unavailable';
  readonly code = 'TOO_MANY_STREAMS';
  override readonly retryAfterSeconds = 5;

  constructor(limit: SlotRefusal, max: number) {
    super(
      limit === 'instance'
        ? `this instance already sends ${max} event streams (EVENTS_MAX_STREAMS); retry later`
        : `this client already holds ${max} event streams on this instance ` +
            '(EVENTS_MAX_STREAMS_PER_CLIENT); end one, or retry later',
    );
  }
}

/**
 * Every long poll this instance lets wait is waiting (EVENTS_MAX_LONG_POLLS), or every one its
 * client may have waiting (EVENTS_MAX_STREAMS_PER_CLIENT): 503, to retry (on any instance).
 */
export class TooManyLongPollsError extends DomainError {
  readonly kind = 'unavailable';
  readonly code = 'TOO_MANY_LONG_POLLS';
  override readonly retryAfterSeconds = 5;

  constructor(limit: SlotRefusal, max: number) {
    super(
      limit === 'instance'
        ? `this instance already holds ${max} waiting long polls (EVENTS_MAX_LONG_POLLS); retry later`
        : `this client already has ${max} long polls waiting on this instance ` +
            '(EVENTS_MAX_STREAMS_PER_CLIENT); retry later',
    );
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
