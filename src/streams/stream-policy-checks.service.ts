import { Injectable } from '@nestjs/common';
import { PolicyViolationError } from '../policies/policy.errors';
import {
  countViolations,
  CountChanges,
  ProducedStream,
  streamViolations,
} from '../policies/policy-rules';
import {
  ScopePoliciesRepository,
  type ScopeUsage,
  type StoredPolicy,
} from '../policies/scope-policies.repository';
import type { PolicyViolation, ScopePolicy } from '../policies/scope-policy';
import { StreamExistsError } from './stream.errors';
import { StreamsRepository } from './streams.repository';

/** A change of a user stream as its scope's policy sees it. */
export interface PolicedChange {
  /** What the change is, for the 422's detail (`creating stream sales/orders`). */
  what: string;
  /** The stream a create or a PUT produces, which the stream rules judge. */
  produced?: { stream: ProducedStream; change: 'create' | 'update' };
  /** Whether the change adds a user stream (a create). */
  addsStream: boolean;
  /** The stream's active segments before and after the change. */
  segments: { before: number; after: number };
}

/** A scope's policy as a change read it, with the counts its own checks moved since. */
export interface HeldPolicy {
  held: StoredPolicy;
}

/** Where a check finds the policy: see {@link StreamPolicyChecks.check}. */
export type PolicySource = 'read' | HeldPolicy;

/** The counts a policy's row keeps once the change is made. */
const usageAfter = (usage: ScopeUsage, change: PolicedChange): ScopeUsage => ({
  streams: usage.streams + (change.addsStream ? 1 : 0),
  activeSegments: usage.activeSegments + change.segments.after - change.segments.before,
});

/**
 * The counts the change moves: the stream's active segments, and, from what the policy's row
 * keeps, the scope's user streams and active segments before the change (`usage`) and after it.
 */
const countChanges = (
  change: PolicedChange,
  usage?: { before: ScopeUsage; after: ScopeUsage },
): CountChanges => {
  const changes: CountChanges = { maxSegmentsPerStream: change.segments };
  if (usage === undefined) return changes;
  const { before, after } = usage;
  changes.maxStreams = { before: before.streams, after: after.streams };
  changes.maxActiveSegments = { before: before.activeSegments, after: after.activeSegments };
  return changes;
};

const hasCountLimits = (policy: ScopePolicy): boolean =>
  policy.maxStreams !== undefined ||
  policy.maxSegmentsPerStream !== undefined ||
  policy.maxActiveSegments !== undefined;

/**
 * Holds every create, PUT and scale of a user stream to its scope's policy (docs/extensions.md section 10),
 * in the change's own transaction and before it writes, listing every rule it would break. The
 * counts are kept by the database (docs/ARCHITECTURE.md, "Counts a policy limits"), so a check
 * reads no more than the policy's row and its counts' row, however large the scope, and takes no
 * lock: changes racing each other are held to the count limits again at their commits, which
 * settle the counts one at a time and fail one that would pass a limit (a 422 built by
 * `policies/limit-passed-at-commit.ts`). A scope without a policy costs one read of no row.
 */
@Injectable()
export class StreamPolicyChecks {
  constructor(
    private readonly policies: ScopePoliciesRepository,
    private readonly streams: StreamsRepository,
  ) {}

  /** Reads the scope's policy, for the checks of a change that may make several (a batch of scales). */
  async hold(scope: string): Promise<HeldPolicy> {
    return { held: await this.policies.find(scope) };
  }

  /**
   * Throws {@link PolicyViolationError} listing every rule the change would break. `from`: read
   * the policy (`read`), or the policy {@link hold} read.
   */
  async check(scope: string, change: PolicedChange, from: PolicySource = 'read'): Promise<void> {
    const stored = typeof from === 'object' ? from.held : await this.policies.find(scope);
    const { policy } = stored;
    const violations: PolicyViolation[] = change.produced
      ? streamViolations(policy, change.produced.stream, change.produced.change)
      : [];
    const usage = stored.usage && { before: stored.usage, after: usageAfter(stored.usage, change) };
    if (hasCountLimits(policy)) {
      violations.push(...countViolations(policy, countChanges(change, usage)));
    }
    if (violations.length === 0) {
      // The change is made next in this transaction, whose later checks (a batch of reports
      // scales a stream several times) count from where it leaves the counts.
      if (typeof from === 'object' && usage) from.held = { ...stored, usage: usage.after };
      return;
    }
    const created = change.produced?.change === 'create' ? change.produced.stream.name : undefined;
    // A create of a stream that exists is a conflict, whatever the policy says of a new one.
    if (created !== undefined && (await this.streams.exists(scope, created))) {
      throw new StreamExistsError(scope, created);
    }
    throw new PolicyViolationError(change.what, violations);
  }
}
