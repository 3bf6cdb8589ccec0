import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { ReadByKey } from '../database/statements-built-once';
import { policyOf, type ScopePolicy } from './scope-policy';
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
  /** Kept only while the scope has a policy's row: undefined without one. */
  usage?: ScopeUsage;
}

/** What a scope whose policy was never set has. */
export const NO_POLICY: StoredPolicy = { policy: {}, version: '0' };

const POLICY_PROPERTIES = ['policy', 'version', 'userStreams', 'activeSegments'] as const;

const storedOf = (row: Pick<ScopePolicyEntity, (typeof POLICY_PROPERTIES)[number]>) => ({
  policy: policyOf(row.policy),
  version: row.version,
  usage: { streams: row.userStreams, activeSegments: row.activeSegments },
});

/**
 * The read of every create, PUT and scale of a stream (docs/ARCHITECTURE.md, "Statements built
 * once"): in a scope without a policy it finds no row, and is all the policy costs the change.
 */
const BY_SCOPE = new ReadByKey(ScopePolicyEntity, ['scopeName'], {
  properties: [...POLICY_PROPERTIES],
});
const LOCKED_BY_SCOPE = new ReadByKey(ScopePolicyEntity, ['scopeName'], {
  properties: [...POLICY_PROPERTIES],
  lock: 'FOR NO KEY UPDATE',
});

/** Every statement of the scope_policies table; each joins the current transaction, if any. */
@Injectable()
export class ScopePoliciesRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get policies() {
    return this.db.tx.getRepository(ScopePolicyEntity);
  }

  /**
   * The scope's policy. With `lock`, its row (where one was set) is held until the transaction
   * ends: the changes a policy limits take turns on it, so each counts what the one before left.
   */
  async find(scope: string, lock = false): Promise<StoredPolicy> {
    const stored = await (lock ? LOCKED_BY_SCOPE : BY_SCOPE).one(this.db.tx, [scope]);
    return stored ? storedOf(stored) : NO_POLICY;
  }

  /**
   * The policies of several scopes (an apply's), each scope without one absent from the map.
   * With `lock`, as {@link find}: the listed scopes' policed changes wait for the transaction.
   */
  async findMany(scopes: string[], lock: boolean): Promise<Map<string, StoredPolicy>> {
    if (scopes.length === 0) return new Map();
    const rows = await this.policies.find({
      select: {
        scopeName: true,
        policy: true,
        version: true,
        userStreams: true,
        activeSegments: true,
      },
      where: { scopeName: In(scopes) },
      order: { scopeName: 'ASC' },
      ...(lock && { lock: { mode: 'for_no_key_update' } }),
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
      await this.policies.insert({
        scopeName: scope,
        policy,
        version,
        userStreams: usage.user_streams,
        activeSegments: usage.active_segments,
      });
    } else {
      await this.policies.update({ scopeName: scope }, { policy, version });
    }
    return version;
  }
}
