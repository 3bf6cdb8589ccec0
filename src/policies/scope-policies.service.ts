import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditedChanges } from '../audit/audited-changes.service';
import { scopeResource } from '../auth/resources';
import { Operation } from '../common/operations';
import type { TagCondition } from '../conditional/entity-tag';
import { ResourceVersion, Tagged } from '../conditional/resource-version';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import { ScopesService } from '../scopes/scopes.service';
import type { ScopePolicyDto } from './dto/scope-policy.dto';
import { ScopePoliciesRepository, StoredPolicy } from './scope-policies.repository';
import { policyOf, type ScopePolicy } from './scope-policy';

/** A scope's policy with what its entity tag is made of. */
interface PolicyState extends StoredPolicy {
  /** When the scope was created (µs): a scope created again starts from tags never seen. */
  scopeCreated: string;
}

/**
 * A policy's version as an entity tag's parts: the scope's creation instant, then `policy.N`,
 * so that no tag of the policy is ever one of the scope's own.
 */
const versionOf = (state: PolicyState): ResourceVersion => ({
  created: state.scopeCreated,
  version: `policy.${state.version}`,
});

@Injectable()
export class ScopePoliciesService {
  constructor(
    private readonly policies: ScopePoliciesRepository,
    private readonly scopes: ScopesService,
    private readonly changes: AuditedChanges,
  ) {}

  /** The scope's policy (`{}` when none was set), tagged with its own version. */
  async get(scope: string): Promise<Tagged<ScopePolicyDto>> {
    const state = await this.state(scope, false);
    if (!state) throw new ScopeNotFoundError(scope);
    return Tagged.of(state.policy, versionOf(state));
  }

  /**
   * The stored policies of existing scopes, those without one absent. An apply judges its plan
   * by them; the counts it moves are held to their limits again at its commit.
   */
  policiesOf(scopes: string[]): Promise<Map<string, StoredPolicy>> {
    return this.policies.findMany(scopes);
  }

  /** Replaces the scope's whole policy; `{}` clears it. */
  replace(
    actor: Actor,
    scope: string,
    body: ScopePolicy,
    condition?: TagCondition,
  ): Promise<Tagged<ScopePolicyDto>> {
    const policy = policyOf(body);
    const target = {
      what: `the policy of scope ${scope}`,
      lock: () => this.state(scope, true),
      missing: () => new ScopeNotFoundError(scope),
      version: versionOf,
    };
    return this.changes.change(actor, target, condition, async (current) => {
      const version = await this.policies.replace(scope, policy, current);
      const result = Tagged.of(policy, versionOf({ ...current, policy, version }));
      return {
        result,
        audit: {
          operation: Operation.updateScopePolicy,
          resource: scopeResource(scope),
          before: current.policy,
          after: policy,
        },
        shown: () => Promise.resolve(result),
      };
    });
  }

  /**
   * The scope's policy and the parts of its tag; undefined when there is no such scope. With
   * `lock`, the scope's row is held until the transaction ends, so replacements take turns
   * (the row lock that lets streams be created in it meanwhile).
   */
  private async state(scope: string, lock: boolean): Promise<PolicyState | undefined> {
    const scopeVersion = (await this.scopes.versionsOf([scope], lock)).get(scope);
    if (!scopeVersion) return undefined;
    return { scopeCreated: scopeVersion.created, ...(await this.policies.find(scope)) };
  }
}
