import { readerGroupResource, scopeResource, streamResource } from '../auth/resources';
import { listed } from '../common/bounded-text';
import { isInternalStreamName } from '../common/names';
import { scopedName, toStreamRefs } from '../reader-groups/stream-ref';
import { ApplyDocument, DesiredScope } from './desired-state';
import {
  CHANGE_ACTIONS,
  ChangeAction,
  FieldDiff,
  PlanConflict,
  Plan,
  PlannedChange,
} from './planned-change';
import { CurrentScope, CurrentState } from './current-state';
import { configurationDiff } from './configuration-diff';
import { renderDesiredStream } from './desired-stream';
import { planVersionOf } from './plan-version';
import { policyAfter, scopeViolations } from './plan-policies';
import type { RuleViolation } from '../common/domain-error';

/** What planning one scope found; `read` names every version it looked at. */
interface ScopePlan {
  changes: PlannedChange[];
  conflicts: PlanConflict[];
  violations: RuleViolation[];
  read: string[];
  /** Whether the plan's words may name a stream (`scope/stream`) a group reads. */
  shown: (stream: string) => boolean;
}

/** The streams a group reads, as a message names them: those it may, and how many others. */
function streamsInWords(streams: readonly string[], shown: (stream: string) => boolean): string {
  const named = streams.filter(shown);
  const hidden = streams.length - named.length;
  if (hidden === 0) return listed(named, String);
  const others = `${hidden} stream${hidden > 1 ? 's' : ''} not shown`;
  return named.length > 0 ? `${listed(named, String)} and ${others}` : others;
}

/**
 * Adds the change that brings one listed resource to the document: create when it does not
 * exist (`diff` undefined), else update or unchanged by its field diff. Answers the action.
 */
function planListed(
  out: ScopePlan,
  resource: string,
  target: PlannedChange['target'],
  diff: FieldDiff[] | undefined,
): ChangeAction {
  const action = diff === undefined ? 'create' : diff.length > 0 ? 'update' : 'unchanged';
  out.changes.push({
    action,
    kind: target.kind,
    resource,
    ...(action === 'update' ? { diff } : {}),
    target,
  });
  return action;
}

/**
 * The change of the scope's policy, when the document sets one: create over none (an empty
 * policy is none), delete for `{}` over one, else update or unchanged by their field diff.
 */
function planPolicy(
  desired: DesiredScope,
  current: CurrentScope | undefined,
  out: ScopePlan,
): void {
  if (!desired.policy) return;
  const { scopeName } = desired;
  const policy = policyAfter(desired, current);
  const stored = current?.policy.policy ?? {};
  const had = Object.keys(stored).length > 0;
  const has = Object.keys(policy).length > 0;
  const diff = had && has ? configurationDiff(stored, policy) : [];
  const action: ChangeAction =
    had === has ? (diff.length > 0 ? 'update' : 'unchanged') : has ? 'create' : 'delete';
  out.changes.push({
    action,
    kind: 'scopePolicy',
    resource: scopeResource(scopeName),
    ...(action === 'update' ? { diff } : {}),
    target: { kind: 'scopePolicy', scopeName, policy },
  });
}

function planStreams(
  desired: DesiredScope,
  current: CurrentScope | undefined,
  out: ScopePlan,
): void {
  const scopeName = desired.scopeName;
  const existing = new Map(current?.streams.map((s) => [s.streamName, s]));
  for (const stream of desired.streams ?? []) {
    const { streamName } = stream;
    const configuration = renderDesiredStream(scopeName, stream);
    const resource = streamResource(scopeName, streamName);
    const now = existing.get(streamName);
    const diff = now && configurationDiff(now.configuration, configuration);
    const target = { kind: 'stream' as const, scopeName, streamName, configuration };
    if (planListed(out, resource, target, diff) === 'update' && now?.sealed) {
      out.conflicts.push({ resource, message: `Stream ${scopeName}/${streamName} is sealed` });
    }
  }
}

function planReaderGroups(
  desired: DesiredScope,
  current: CurrentScope | undefined,
  out: ScopePlan,
): void {
  const scopeName = desired.scopeName;
  const existing = new Map(current?.readerGroups.map((g) => [g.readerGroupName, g]));
  for (const { readerGroupName, streams: refs } of desired.readerGroups ?? []) {
    const streams = toStreamRefs(refs, scopeName).map(scopedName);
    const resource = readerGroupResource(scopeName, readerGroupName);
    const now = existing.get(readerGroupName);
    const diff = now && configurationDiff({ streams: now.streams }, { streams });
    const target = { kind: 'readerGroup' as const, scopeName, readerGroupName, streams };
    // A reader group's streams cannot be changed in place: the document must not pretend they can.
    if (planListed(out, resource, target, diff) === 'update') {
      out.conflicts.push({
        resource,
        message: `Reader group ${scopeName}/${readerGroupName} reads other streams (${streamsInWords(now!.streams, out.shown)})`,
      });
    }
  }
}

/** Deletes, inside one listed scope, the user streams and reader groups the document omits. */
function planPrune(desired: DesiredScope, current: CurrentScope, out: ScopePlan): void {
  const scopeName = desired.scopeName;
  const listedGroups = new Set(desired.readerGroups?.map((g) => g.readerGroupName));
  for (const group of current.readerGroups) {
    if (listedGroups.has(group.readerGroupName)) continue;
    out.changes.push({
      action: 'delete',
      kind: 'readerGroup',
      resource: readerGroupResource(scopeName, group.readerGroupName),
      target: { kind: 'readerGroup', scopeName, readerGroupName: group.readerGroupName },
    });
  }
  const listedStreams = new Set(desired.streams?.map((s) => s.streamName));
  for (const stream of current.streams) {
    if (listedStreams.has(stream.streamName) || isInternalStreamName(stream.streamName)) continue;
    out.changes.push({
      action: 'delete',
      kind: 'stream',
      resource: streamResource(scopeName, stream.streamName),
      target: { kind: 'stream', scopeName, streamName: stream.streamName },
    });
  }
}

function versionsRead(scopeName: string, current: CurrentScope | undefined): string[] {
  if (!current) return [`scope:${scopeName}@absent`];
  return [
    `scope:${scopeName}@${current.version}`,
    `policy:${scopeName}@${current.policy.version}`,
    ...current.streams.map((s) => `stream:${scopeName}/${s.streamName}@${s.version}`),
    ...current.readerGroups.map(
      (g) => `readerGroup:${scopeName}/${g.readerGroupName}@${g.version}`,
    ),
  ];
}

/**
 * The plan that turns `state` into what `document` describes: pure, so a dry run and the real
 * apply (given the same state) plan exactly the same. The document must be valid
 * ({@link validateApplyDocument}). `shown` says which streams of existing groups its words may
 * name (those the caller may read); the others are counted, never named.
 */
export function makePlan(
  document: ApplyDocument,
  state: CurrentState,
  shown: (stream: string) => boolean = () => true,
): Plan {
  const scopes = new Map(state.scopes.map((s) => [s.scopeName, s]));
  const out: ScopePlan = { changes: [], conflicts: [], violations: [], read: [], shown };
  for (const desired of document.scopes) {
    const current = scopes.get(desired.scopeName);
    const first = out.changes.length;
    out.read.push(...versionsRead(desired.scopeName, current));
    out.changes.push({
      action: current ? 'unchanged' : 'create',
      kind: 'scope',
      resource: scopeResource(desired.scopeName),
      target: { kind: 'scope', scopeName: desired.scopeName },
    });
    planPolicy(desired, current, out);
    planStreams(desired, current, out);
    planReaderGroups(desired, current, out);
    if (document.prune && current) planPrune(desired, current, out);
    out.violations.push(...scopeViolations(desired, current, out.changes.slice(first)));
  }
  return {
    changes: out.changes,
    summary: summarize(out.changes.map((c) => c.action)),
    conflicts: out.conflicts,
    violations: out.violations,
    planVersion: planVersionOf(out.read),
  };
}

function summarize(actions: ChangeAction[]): Record<ChangeAction, number> {
  const summary = Object.fromEntries(CHANGE_ACTIONS.map((a) => [a, 0])) as Record<
    ChangeAction,
    number
  >;
  for (const action of actions) summary[action] += 1;
  return summary;
}
