import type { CurrentScope, CurrentState } from '../../src/apply/current-state';
import type { Plan, PlannedChange } from '../../src/apply/planned-change';
import { NO_POLICY } from '../../src/policies/scope-policies.repository';
import { activeSegmentsAfter } from '../../src/scaling/scaling-decision';
import type { ScalingPolicy } from '../../src/streams/scaling-policy';

/** Raised when a plan with conflicts is applied: the whole document is refused. */
export class PlanConflictError extends Error {
  constructor(readonly resources: string[]) {
    super(`The plan has conflicts: ${resources.join(', ')}`);
  }
}

function scopeOf(state: CurrentState, scopeName: string): CurrentScope {
  const scope = state.scopes.find((s) => s.scopeName === scopeName);
  if (!scope) throw new Error(`Scope ${scopeName} is not in the state`);
  return scope;
}

function applyChange(state: CurrentState, change: PlannedChange): void {
  const { action, target } = change;
  if (action === 'unchanged') return;
  if (target.kind === 'scope') {
    state.scopes.push({
      scopeName: target.scopeName,
      version: '',
      policy: NO_POLICY,
      streams: [],
      readerGroups: [],
    });
    return;
  }
  const scope = scopeOf(state, target.scopeName);
  if (target.kind === 'scopePolicy') {
    scope.policy = { policy: target.policy, version: `${scope.policy.version}+` };
    return;
  }
  if (target.kind === 'stream') {
    const index = scope.streams.findIndex((s) => s.streamName === target.streamName);
    if (action === 'delete') scope.streams.splice(index, 1);
    else if (action === 'create') {
      scope.streams.push({
        streamName: target.streamName,
        configuration: target.configuration!,
        sealed: false,
        activeSegments: (target.configuration!.scalingPolicy as ScalingPolicy).minSegments,
        version: '',
      });
    } else {
      const stream = scope.streams[index];
      const scaling = target.configuration!.scalingPolicy as ScalingPolicy;
      scope.streams[index] = {
        ...stream,
        configuration: target.configuration!,
        activeSegments: activeSegmentsAfter(scaling, stream.activeSegments),
        version: `${stream.version}+`,
      };
    }
    return;
  }
  if (action === 'delete') {
    scope.readerGroups = scope.readerGroups.filter(
      (g) => g.readerGroupName !== target.readerGroupName,
    );
  } else {
    scope.readerGroups.push({
      readerGroupName: target.readerGroupName,
      streams: target.streams!,
      version: '',
    });
  }
}

/**
 * A model of executing a plan: the state the service holds once the plan has run, all of it or
 * (with conflicts) none of it. The input is left as it was.
 */
export function applyPlan(state: CurrentState, plan: Plan): CurrentState {
  if (plan.conflicts.length > 0) throw new PlanConflictError(plan.conflicts.map((c) => c.resource));
  const next = structuredClone(state);
  for (const change of plan.changes) applyChange(next, change);
  return next;
}
