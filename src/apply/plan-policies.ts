import type { RuleViolation } from '../common/domain-error';
import { countViolations, CountChanges, streamViolations } from '../policies/policy-rules';
import { policyOf, type ScopePolicy } from '../policies/scope-policy';
import { activeSegmentsAfter } from '../scaling/scaling-decision';
import { toStreamConfiguration } from '../streams/stream-configuration';
import type { CurrentScope } from './current-state';
import type { DesiredScope } from './desired-state';
import type { PlannedChange } from './planned-change';

const isEmpty = (policy: ScopePolicy): boolean => Object.keys(policy).length === 0;

/** The policy a scope has once the document is applied: the document's, else the stored one. */
export function policyAfter(desired: DesiredScope, current: CurrentScope | undefined): ScopePolicy {
  return desired.policy ? policyOf(desired.policy) : (current?.policy.policy ?? {});
}

const sum = (counts: readonly number[]): number => counts.reduce((a, b) => a + b, 0);

/**
 * Every rule of the scope's policy (as the document leaves it) that the plan's stream changes in
 * the scope break, each naming its change's resource (docs/extensions.md section 5). Stream rules
 * judge each create and update as its single request would. Count limits count the state the
 * whole plan produces: what it lowers (pruned streams, updates to fewer segments) first, then
 * what it raises, change by change in the document's order; a change is refused where its count
 * then passes the limit and stands above today's count, so of many creates only those past the
 * limit are named, and a plan that lowers a count over its limit passes. `changes` are the
 * plan's changes of this scope.
 */
export function scopeViolations(
  desired: DesiredScope,
  current: CurrentScope | undefined,
  changes: readonly PlannedChange[],
): RuleViolation[] {
  const policy = policyAfter(desired, current);
  if (isEmpty(policy)) return [];
  const existing = new Map(current?.streams.map((s) => [s.streamName, s]));
  const listed = new Map(desired.streams?.map((s) => [s.streamName, s]));
  const judged = changes.flatMap(({ action, resource, target }) => {
    if (target.kind !== 'stream' || (action !== 'create' && action !== 'update')) return [];
    const configuration = toStreamConfiguration(listed.get(target.streamName)!);
    const before = existing.get(target.streamName)?.activeSegments ?? 0;
    const after = activeSegmentsAfter(configuration.scaling, before);
    const stream = { name: target.streamName, configuration };
    return [{ action, resource, stream, segments: { before, after } }];
  });
  const pruned = changes.flatMap(({ action, target }) =>
    action === 'delete' && target.kind === 'stream' ? [existing.get(target.streamName)!] : [],
  );

  const streamsNow = existing.size;
  const activeNow = sum([...existing.values()].map((s) => s.activeSegments));
  let streams = streamsNow - pruned.length;
  let active =
    activeNow -
    sum(pruned.map((s) => s.activeSegments)) +
    sum(judged.map(({ segments }) => Math.min(0, segments.after - segments.before)));

  const violations: RuleViolation[] = [];
  for (const { action, resource, stream, segments } of judged) {
    const counts: CountChanges = { maxSegmentsPerStream: segments };
    if (action === 'create') {
      streams += 1;
      counts.maxStreams = { before: streamsNow, after: streams };
    }
    const raised = segments.after - segments.before;
    if (raised > 0) {
      active += raised;
      counts.maxActiveSegments = { before: activeNow, after: active };
    }
    const broken = [
      ...streamViolations(policy, stream, action),
      ...countViolations(policy, counts),
    ];
    violations.push(...broken.map((violation) => ({ ...violation, resource })));
  }
  return violations;
}
