import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { QueryBuiltOnce } from '../database/statements-built-once';
import { policyOf, type ScopePolicy } from './scope-policy';
import { ScopePolicyCountsEntity } from './scope-policy-counts.entity';
import { ScopePolicyEntity } from './scope-policy.entity';

/** What a scope's count limits are held to (docs/ARCHITECTURE.md, "Counts a policy limits"). */
export interface ScopeUsage {
  /** Its user streams, sealed ones too. */
  streams: number;
  /** The active segments of its active user streams. */
  activeSegments: number;
}

/** A scope's policy as stored, with the version its entity tag ends with. */
export interface StoredPolicy {
  policy: ScopePolicy;
  /** `0` for a scope whose policy was never set. */
  version: string;
  /** The scope's counts, where {@link ScopePoliciesRepository.find} read them. */
  usage?: ScopeUsage;
}

/** What a scope whose policy was never set has. */
export const NO_POLICY: StoredPolicy = { policy: {}, version: '0' };

type PolicyRow = Pick<ScopePolicyEntity, 'policy' | 'version'>;

/**
 * A policy's row with its counts' (joined, so null only if the counts' row were missing: the first
 * PUT of a policy inserts both, and the invariants hold every policy to having its counts).
 */
type PolicyWithCountsRow = PolicyRow & {
  userStreams: number | null;
  activeSegments: number | null;
};

const storedOf = (row: PolicyRow, usage?: ScopeUsage): StoredPolicy => ({
  policy: policyOf(row.policy),
  version: row.version,
  ...(usage && { usage }),
});

const usageOf = ({ userStreams, activeSegments }: PolicyWithCountsRow): ScopeUsage | undefined =>
  userStreams === null || activeSegments === null
    ? undefined
    : { streams: userStreams, activeSegments };

/**
 * The read of every create, PUT and scale of a stream (docs/ARCHITECTURE.md, "Statements built
 * once"): the policy and its scope's counts in one statement. In a scope without a policy it
 * finds no row, and is all the policy costs the change.
 */
const WITH_COUNTS = new QueryBuiltOnce(
  (manager) =>
    manager
      .createQueryBuilder(ScopePolicyEntity, 'p')
      .leftJoin(ScopePolicyCountsEntity, 'c', 'c.scopeName = p.scopeName')
      .select('p.policy', 'policy')
      .addSelect('p.version', 'version')
      .addSelect('c.userStreams', 'userStreams')
      .addSelect('c.activeSegments', 'activeSegments')
      .where('p.scopeName = :scope'),
  ['scope'],
);

/**
 * Every statement of the scope_policies and scope_policy_counts tables; each joins the current
 * transaction, if any.
 */
@Injectable()
export class ScopePoliciesRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get policies() {
    return this.db.tx.getRepository(ScopePolicyEntity);
  }

  private get counts() {
    return this.db.tx.getRepository(ScopePolicyCountsEntity);
  }

  /**
   * The scope's policy, unlocked: the changes it limits are held to its counts again when they
   * commit (migration PolicyCountsAtCommit), and a PUT of it holds the scope's row.
   */
  async find(scope: string): Promise<StoredPolicy> {
    const [row] = await WITH_COUNTS.rows<PolicyWithCountsRow>(this.db.tx, { scope });
    return row ? storedOf(row, usageOf(row)) : NO_POLICY;
  }

  /**
   * The policies of several scopes (an apply's, which counts their streams itself), without
   * their counts, each scope without one absent from the map.
   */
  async findMany(scopes: string[]): Promise<Map<string, StoredPolicy>> {
    if (scopes.length === 0) return new Map();
    const rows = await this.policies.find({
      select: {
        scopeName: true,
        policy: true,
        version: true,
      },
      where: { scopeName: In(scopes) },
      order: { scopeName: 'ASC' },
    });
    return new Map(rows.map((row) => [row.scopeName, storedOf(row)]));
  }

  /**
   * Replaces the scope's policy; the new version. The caller holds the scope's row, so no other
   * replacement runs between reading `current` and this. The first policy of a scope counts
   * what its limits are held to, after every change in flight that wrote the scope's streams
   * (migration PolicyCounts); from then on, what writes them moves the counts.
   */
  async replace(scope: string, policy: ScopePolicy, current: StoredPolicy): Promise<string> {
    const version = String(BigInt(current.version) + 1n);
    if (current.version === NO_POLICY.version) {
      // A function of the migration: it waits on the lock the counting triggers hold.
      const [usage] = await this.db.tx.query<{ user_streams: number; active_segments: number }[]>(
        'SELECT user_streams, active_segments FROM scope_policy_usage($1)',
        [scope],
      );
      await this.policies.insert({ scopeName: scope, policy, version });
      await this.counts.insert({
        scopeName: scope,
        userStreams: usage.user_streams,
        activeSegments: usage.active_segments,
      });
    } else {
      await this.policies.update({ scopeName: scope }, { policy, version });
    }
    return version;
  }
}
