import { DomainError } from '../common/domain-error';
import { ifMatchHolds, strongTag, TagCondition } from './entity-tag';

/**
 * One state of one resource: the instant (µs since 1970) the resource was created, and its
 * version, which every change increments. Both as text: PostgreSQL's bigints exceed a double.
 */
export interface ResourceVersion {
  created: string;
  version: string;
}

/**
 * The strong entity tag of a state, `"<created>.<version>"`. The creation instant makes a
 * stream deleted and created again under the same name start from tags its predecessor never
 * had, so an `If-Match` kept from the old one can never pass on the new one.
 */
export const entityTagOf = (state: ResourceVersion): string =>
  strongTag(state.created, state.version);

/**
 * What a handler answers for one resource: the body and the entity tag of the state it shows.
 * The route's {@link EntityTagInterceptor} sends the body with the tag as `ETag`.
 */
export class Tagged<T> {
  constructor(
    readonly body: T,
    readonly etag: string,
  ) {}

  /** The body of one state of a resource, tagged with that state's version. */
  static of<T>(body: T, state: ResourceVersion): Tagged<T> {
    return new Tagged(body, entityTagOf(state));
  }
}

export class PreconditionFailedError extends DomainError {
  readonly kind = 'precondition';
  readonly code = 'PRECONDITION_FAILED';

  constructor(what: string, current: string) {
    super(`If-Match names no current entity tag of ${what} (now ${current})`);
  }
}

/**
 * Refuses a change unless `If-Match` holds for the current state. The caller holds the
 * resource's row lock, so the state cannot change between this check and its own change.
 */
export function requireMatch(
  condition: TagCondition | undefined,
  what: string,
  current: ResourceVersion,
): void {
  const tag = entityTagOf(current);
  if (!ifMatchHolds(condition, tag)) throw new PreconditionFailedError(what, tag);
}
