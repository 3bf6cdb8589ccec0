import { DomainError } from '../errors/domain-error';
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

/** A body and the entity tag of the state it shows. */
export interface Tagged<T> {
  body: T;
  etag: string;
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
