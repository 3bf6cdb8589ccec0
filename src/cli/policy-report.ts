import { pc } from './colours';
import type { components } from './generated/api';
import { listTable, propertiesTable } from './output';

type ScopePolicy = components['schemas']['ScopePolicy'];
type ScopeCompliance = components['schemas']['ScopeCompliance'];

/** A count, with its limit where the policy sets one, and marked in words when it is over. */
function use(count: number, limit: number | undefined, what: string): string {
  if (limit === undefined) return `${count} ${what}`;
  const words = `${count} of ${limit} ${what}`;
  return count > limit ? `${words} ${pc.red('(over the limit)')}` : words;
}

/**
 * A scope's policy and how the scope stands against it, for a person: the policy's fields, the
 * use of its scope-wide limits, and each stream that breaks it with each rule.
 */
export function formatPolicyReport(
  scope: string,
  policy: ScopePolicy,
  etag: string | null,
  compliance: ScopeCompliance,
): string {
  const lines: string[] = [];
  lines.push(`${pc.bold(`Policy of scope ${scope}`)}${etag ? ` (ETag ${etag})` : ''}`);
  lines.push(Object.keys(policy).length === 0 ? 'No policy is set.' : propertiesTable(policy));
  lines.push(
    `Use: ${use(compliance.streams, policy.maxStreams, 'streams')}, ${use(
      compliance.activeSegments,
      policy.maxActiveSegments,
      'active segments',
    )}`,
  );
  const { nonCompliantCount: count, nonCompliant } = compliance;
  if (count === 0) return lines.join('\n');
  const listed = nonCompliant.length < count ? ` (the first ${nonCompliant.length} by name)` : '';
  lines.push(`${count} ${count === 1 ? 'stream breaks' : 'streams break'} the policy${listed}:`);
  lines.push(
    listTable(
      ['stream', 'rule', 'detail'],
      nonCompliant.flatMap((s) => s.violations.map((v) => [s.streamName, v.rule, v.detail])),
    ),
  );
  return lines.join('\n');
}
