import { Injectable } from '@nestjs/common';
import { PolicyViolationError } from '../policies/policy.errors';
import {
  countViolations,
  CountChanges,
  ProducedStream,
  streamViolations,
} from '../policies/policy-rules';
import { ScopePoliciesRepository } from '../policies/scope-policies.repository';
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
  held: ScopePolicy;
}

/** Where a check finds the policy: see {@link StreamPolicyChecks.check}. */
export type PolicySource = 'lock' | 'read' | HeldPolicy;

const hasCountLimits = (policy: ScopePolicy): boolean =>
  policy.maxStreams !== undefined ||
  policy.maxSegmentsPerStream !== undefined ||
  policy.maxActiveSegments !== undefined;

/**
 * Holds every create, PUT and scale of a user stream to its scope's policy (docs/extensions.md section 10),
 * in the change's own transaction and before it writes. The policy's row is locked first: the
 * changes of a scope with a policy take turns on it, so each counts what the one before it left
 * (another instance's too), and a count limit cannot be passed by changes racing each other.
 * A scope without a policy costs one read of no row, and no lock.
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
   * before they read or write streams: every change a policy limits takes the two in one order.
   */
  async hold(scope: string): Promise<HeldPolicy> {
    return { held: (await this.policies.find(scope, true)).policy };
  }

  /**
   * Throws {@link PolicyViolationError} listing every rule the change would break. `from`: lock
   * the policy's row and read it (`lock`), read it alone (`read`: a dry run's snapshot), or the
   * policy {@link hold} read and locked.
   */
  async check(scope: string, change: PolicedChange, from: PolicySource = 'lock'): Promise<void> {
    const policy =
      typeof from === 'object'
        ? from.held
        : (await this.policies.find(scope, from === 'lock')).policy;
    const violations: PolicyViolation[] = change.produced
      ? streamViolations(policy, change.produced.stream, change.produced.change)
      : [];
    if (hasCountLimits(policy)) {
      violations.push(...countViolations(policy, await this.countChanges(scope, policy, change)));
    }
    if (violations.length === 0) return;
    const created = change.produced?.change === 'create' ? change.produced.stream.name : undefined;
    // A create of a stream that exists is a conflict, whatever the policy says of a new one.
    if (created !== undefined && (await this.streams.exists(scope, created))) {
      throw new StreamExistsError(scope, created);
    }
    throw new PolicyViolationError(change.what, violations);
  }

  /**
   * The counts the change moves that its policy limits. A count the change does not raise
   * cannot break its limit, and is not counted: a scale in a scope that limits streams alone, or
   * a create in one that limits segments per stream alone, reads nothing more.
   */
  private async countChanges(
    scope: string,
    policy: ScopePolicy,
    change: PolicedChange,
  ): Promise<CountChanges> {
    const { before, after } = change.segments;
    const changes: CountChanges = { maxSegmentsPerStream: { before, after } };
    const asked = {
      streams: policy.maxStreams !== undefined && change.addsStream,
      activeSegments: policy.maxActiveSegments !== undefined && after > before,
    };
    if (!asked.streams && !asked.activeSegments) return changes;
    const now = await this.streams.userCounts(scope, asked);
    if (now.streams !== undefined) {
      changes.maxStreams = { before: now.streams, after: now.streams + 1 };
    }
    if (now.activeSegments !== undefined) {
      changes.maxActiveSegments = {
        before: now.activeSegments,
        after: now.activeSegments + after - before,
      };
    }
    return changes;
  }
}
