import type { StreamPropertyDto } from '../streams/dto/stream-property.dto';
import type { StreamConfigurationInput } from '../streams/stream-configuration';

/** The most streams one document may list, over all its scopes. */
export const MAX_DOCUMENT_STREAMS = 10_000;

/** A stream as the document lists it: the body of `CreateStreamRequest`. */
export interface DesiredStream extends StreamConfigurationInput {
  streamName: string;
}

/** A reader group as the document lists it: streams as `stream` or `scope/stream`. */
export interface DesiredReaderGroup {
  readerGroupName: string;
  streams: string[];
}

export interface DesiredScope {
  scopeName: string;
  streams?: DesiredStream[];
  readerGroups?: DesiredReaderGroup[];
}

/** The desired state of `POST /v1/apply` (extensions.md section 5), already validated. */
export interface ApplyDocument {
  scopes: DesiredScope[];
  prune?: boolean;
}

/** A stream's configuration as `GET` stream renders it, without the names. */
export type StreamConfigurationView = Omit<StreamPropertyDto, 'scopeName' | 'streamName'>;

/** A user stream as it is now. */
export interface CurrentStream {
  streamName: string;
  configuration: StreamConfigurationView;
  sealed: boolean;
  /** Its entity tag: changes with every change, and when it is deleted and made again. */
  version: string;
}

/** A reader group as it is now; `streams` are scoped names (`scope/stream`). */
export interface CurrentReaderGroup {
  readerGroupName: string;
  streams: string[];
  /** Its entity tag: changes with every change, and when it is deleted and made again. */
  version: string;
}

export interface CurrentScope {
  scopeName: string;
  /** Its entity tag: changes with every change, and when it is deleted and made again. */
  version: string;
  streams: CurrentStream[];
  readerGroups: CurrentReaderGroup[];
}

/**
 * What exists now. The planner reads only the scopes the document lists; others may be present
 * (the model of a whole service) and are never looked at.
 */
export interface CurrentState {
  scopes: CurrentScope[];
}

export type ChangeAction = 'create' | 'update' | 'delete' | 'unchanged';
export type ChangeKind = 'scope' | 'stream' | 'readerGroup';
export const CHANGE_ACTIONS: readonly ChangeAction[] = ['create', 'update', 'delete', 'unchanged'];

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
  /** A strong entity tag, quotes included, over every version the plan read. */
  planVersion: string;
}

/** The answer of `POST /v1/apply` (extensions.md section 5): the plan, and whether it ran. */
export interface ApplyAnswer {
  dryRun: boolean;
  applied: boolean;
  changes: Change[];
  summary: Record<ChangeAction, number>;
  conflicts?: PlanConflict[];
  planVersion: string;
}
