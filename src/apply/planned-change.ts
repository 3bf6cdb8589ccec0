import type { RuleViolation } from '../common/domain-error';
import type { ScopePolicy } from '../policies/scope-policy';
import type { StreamConfigurationView } from './current-state';

export type ChangeAction = 'create' | 'update' | 'delete' | 'unchanged';
export const CHANGE_ACTIONS: readonly ChangeAction[] = ['create', 'update', 'delete', 'unchanged'];
export const CHANGE_KINDS = ['scope', 'scopePolicy', 'stream', 'readerGroup'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One field an update changes; an absent `before`/`after` means the field is absent. */
export interface FieldDiff {
  path: string;
  before?: unknown;
  after?: unknown;
}

/** One change of the answer, as the API shows it. */
export interface Change {
  action: ChangeAction;
  kind: ChangeKind;
  /** The resource in ACL form (`prn::/scope:S/stream:T`). */
  resource: string;
  diff?: FieldDiff[];
}

/** What a change makes of its resource: what executing it (or a model of it) needs. */
export type ChangeTarget =
  | { kind: 'scope'; scopeName: string }
  /** The policy the scope is given (`{}` clears it). */
  | { kind: 'scopePolicy'; scopeName: string; policy: ScopePolicy }
  | {
      kind: 'stream';
      scopeName: string;
      streamName: string;
      /** The desired configuration; absent for a delete. */
      configuration?: StreamConfigurationView;
    }
  | {
      kind: 'readerGroup';
      scopeName: string;
      readerGroupName: string;
      /** Scoped names; absent for a delete. */
      streams?: string[];
    };

export interface PlannedChange extends Change {
  target: ChangeTarget;
}

/** A resource that stops the whole document (a reader group with other streams, a sealed update). */
export interface PlanConflict {
  resource: string;
  message: string;
}

export interface Plan {
  changes: PlannedChange[];
  summary: Record<ChangeAction, number>;
  conflicts: PlanConflict[];
  /** Every rule of a scope's policy a stream change would break, each naming its resource. */
  violations: RuleViolation[];
  /** A strong entity tag, quotes included, over every version the plan read. */
  planVersion: string;
}
