import type { StreamConfiguration } from '../streams/stream-configuration';
import { anyMatches, NamePattern } from './name-pattern';
import type { CountLimit, PolicyViolation, ScopePolicy } from './scope-policy';

const MINUTES_PER_DAY = 1440;

/** A count a change moves: what it is now and what the change would make it. */
export interface CountChange {
  before: number;
  after: number;
}

/** The counts of a change that a policy limits; a count the change leaves alone is absent. */
export type CountChanges = Partial<Record<CountLimit, CountChange>>;

const COUNTED: Record<CountLimit, string> = {
  maxStreams: 'user streams in the scope',
  maxSegmentsPerStream: 'active segments of the stream',
  maxActiveSegments: 'active segments of the user streams in the scope',
};

/**
 * The count limits a change breaks: those whose count it raises above the limit. A change that
 * lowers a count, or leaves it as it is, passes even where the count is already over.
 */
export function countViolations(policy: ScopePolicy, changes: CountChanges): PolicyViolation[] {
  const violations: PolicyViolation[] = [];
  for (const rule of Object.keys(COUNTED) as CountLimit[]) {
    const limit = policy[rule];
    const change = changes[rule];
    if (limit === undefined || change === undefined) continue;
    if (change.after > limit && change.after > change.before) {
      violations.push({
        rule,
        limit,
        actual: change.after,
        detail: `The change would make ${change.after} ${COUNTED[rule]}, over the limit of ${limit}.`,
      });
    }
  }
  return violations;
}

/** A stream as a create or a PUT would leave it. */
export interface ProducedStream {
  name: string;
  configuration: StreamConfiguration;
}

/**
 * The stream rules the stream a change produces breaks, every one. `streamNames` is a rule of
 * creates alone: a PUT does not rename.
 */
export function streamViolations(
  policy: ScopePolicy,
  stream: ProducedStream,
  change: 'create' | 'update',
): PolicyViolation[] {
  const { configuration } = stream;
  const violations: PolicyViolation[] = [];
  const { streamNames, scalingTypes, requiredTags } = policy;
  if (change === 'create' && streamNames && !anyMatches(patterns(streamNames), stream.name)) {
    violations.push({
      rule: 'streamNames',
      limit: streamNames,
      actual: stream.name,
      detail: `The stream name ${stream.name} matches none of the scope's name patterns.`,
    });
  }
  const type = configuration.scaling.type;
  if (scalingTypes && !scalingTypes.includes(type)) {
    violations.push({
      rule: 'scalingTypes',
      limit: scalingTypes,
      actual: type,
      detail: `The scaling policy type ${type} is not one the scope allows.`,
    });
  }
  violations.push(...retentionViolations(policy, configuration));
  for (const pattern of requiredTags ?? []) {
    if (!anyTagMatches(new NamePattern(pattern), configuration.tags)) {
      violations.push({
        rule: 'requiredTags',
        limit: pattern,
        actual: configuration.tags,
        detail: `No tag of the stream matches the required tag pattern ${pattern}.`,
      });
    }
  }
  return violations;
}

function retentionViolations(
  policy: ScopePolicy,
  configuration: StreamConfiguration,
): PolicyViolation[] {
  const rule = policy.retention;
  const { retention } = configuration;
  if (!rule) return [];
  if (!retention) {
    return rule.required
      ? [
          {
            rule: 'retention.required',
            limit: true,
            detail: 'The scope requires every stream to have a retention policy.',
          },
        ]
      : [];
  }
  // The larger of the policy's limits: the one a bound is broken by first.
  const largest = Math.max(retention.min, retention.max ?? 0);
  if (retention.type === 'LIMITED_DAYS' && rule.maxDays !== undefined) {
    // Compared in whole minutes; the days are shown with their fraction, as GET answers them.
    if (largest > rule.maxDays * MINUTES_PER_DAY) {
      const days = largest / MINUTES_PER_DAY;
      return [
        {
          rule: 'retention.maxDays',
          limit: rule.maxDays,
          actual: days,
          detail: `The retention keeps data ${days} days, over the scope's limit of ${rule.maxDays}.`,
        },
      ];
    }
  }
  if (retention.type === 'LIMITED_SIZE_MB' && rule.maxSizeMb !== undefined) {
    if (largest > rule.maxSizeMb) {
      return [
        {
          rule: 'retention.maxSizeMb',
          limit: rule.maxSizeMb,
          actual: largest,
          detail: `The retention keeps ${largest} MB, over the scope's limit of ${rule.maxSizeMb}.`,
        },
      ];
    }
  }
  return [];
}

const patterns = (texts: readonly string[]): NamePattern[] =>
  texts.map((text) => new NamePattern(text));

const anyTagMatches = (pattern: NamePattern, tags: readonly string[]): boolean =>
  tags.some((tag) => pattern.matches(tag));
