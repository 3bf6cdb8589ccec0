import { listed } from '../common/bounded-text';
import { DomainError, MissingPermission, ResourceConflict } from '../common/domain-error';

/** Something the document needs stops it: nothing of it is applied. */
export class ApplyConflictError extends DomainError {
  readonly kind = 'conflict';
  readonly code = 'APPLY_CONFLICT';

  constructor(override readonly conflicts: ResourceConflict[]) {
    super(`Nothing was applied: ${listed(conflicts, (c) => `${c.resource}: ${c.message}`, '; ')}`);
  }
}

/** The caller lacks the permission of one or more changes (or READ on a listed scope). */
export class ApplyForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  readonly code = 'PERMISSION_DENIED';

  constructor(override readonly missing: MissingPermission[]) {
    super(
      `Nothing was applied; missing: ${listed(missing, (m) => `${m.permission} on ${m.resource}`)}`,
    );
  }
}
