import type { ChangeOperation } from '../auth/needs';
import type { RuleViolation } from '../common/domain-error';
import type { ChangeAction, Change, Plan, PlanConflict, PlannedChange } from './planned-change';

/** The answer of `POST /v1/apply` (docs/extensions.md section 5): the plan, and whether it ran. */
export interface ApplyAnswer {
  dryRun: boolean;
  applied: boolean;
  changes: Change[];
  summary: Record<ChangeAction, number>;
  conflicts?: PlanConflict[];
  /** A dry run's: the rules of scopes' policies the plan would break (a real apply is a 422). */
  violations?: RuleViolation[];
  planVersion: string;
}

/**
 * The operations (operation ids of the OpenAPI document) a change runs: each needs its own
 * permission and writes its own audit row. A pruned stream is sealed, then deleted.
 */
export function operationsOf(change: PlannedChange): ChangeOperation[] {
  const { action, kind } = change;
  if (action === 'unchanged') return [];
  if (kind === 'scope') return ['createScope']; // scopes are never deleted by an apply
  if (kind === 'scopePolicy') return ['updateScopePolicy']; // a PUT, `{}` for a delete
  if (kind === 'readerGroup')
    return action === 'create' ? ['createReaderGroup'] : ['deleteReaderGroup'];
  if (action === 'create') return ['createStream'];
  return action === 'update' ? ['updateStream'] : ['updateStreamState', 'deleteStream'];
}

/** The body of the 200 answer: the plan without what only executing it needs. */
export function toApplyAnswer(plan: Plan, dryRun: boolean): ApplyAnswer {
  return {
    dryRun,
    applied: !dryRun,
    changes: plan.changes.map(({ target: _target, ...change }) => change),
    summary: plan.summary,
    ...(plan.conflicts.length > 0 ? { conflicts: plan.conflicts } : {}),
    ...(plan.violations.length > 0 ? { violations: plan.violations } : {}),
    planVersion: plan.planVersion,
  };
}
