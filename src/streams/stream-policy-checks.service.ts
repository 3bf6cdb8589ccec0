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

/** A scope's policy read under its row lock, which the transaction holds. */
export interface HeldPolicy {
  held: StoredPolicy;
}

/** Where a check finds the policy: see {@link StreamPolicyChecks.check}. */
export type PolicySource = 'lock' | 'read' | HeldPolicy;

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
 * in the change's own transaction and before it writes. The policy's row is locked first: the
 * changes of a scope with a policy take turns on it, so each reads the counts the one before it
 * left on the row (another instance's too), and a count limit cannot be passed by changes racing
 * each other. The counts are kept on the row by the database (docs/ARCHITECTURE.md, "Counts a
 * policy limits"): a check reads no more than the row, however large the scope. A scope without a
 * policy costs one read of no row, and no lock.
 */
@Injectable()
export class StreamPolicyChecks {
  constructor(
    private readonly policies: ScopePoliciesRepository,
    private readonly streams: StreamsRepository,
  ) {}

  /**
   * Reads the scope's policy and locks its row until the transaction ends. A change of an
   * existing stream takes it before the stream's own row, as a create and an apply take it
   * before they read or write streams: every change that moves what a policy counts takes the
   * two in one order (a seal and a delete too, whose counts the row's triggers move).
   */
  async hold(scope: string): Promise<HeldPolicy> {
    return { held: await this.policies.find(scope, true) };
  }

  /**
   * Throws {@link PolicyViolationError} listing every rule the change would break. `from`: lock
   * the policy's row and read it (`lock`), read it alone (`read`: a dry run's snapshot), or the
   * policy {@link hold} read and locked.
   */
  async check(scope: string, change: PolicedChange, from: PolicySource = 'lock'): Promise<void> {
    const stored =
      typeof from === 'object' ? from.held : await this.policies.find(scope, from === 'lock');
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
