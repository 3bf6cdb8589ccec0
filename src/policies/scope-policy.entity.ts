import {
  Check,
  Column,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { ScopeEntity } from '../scopes/scope.entity';
import type { ScopePolicy } from './scope-policy';

/**
 * The policy of a scope, once one was set (migration ScopePolicies). It is replaced whole, so
 * it is one document; `{}` clears it but keeps the row, whose version then still moves on: a
 * policy's entity tag never comes back. A scope without a row has the empty policy, version 0.
 */
@Entity({ name: 'scope_policies' })
@Check('scope_policies_policy_object', `jsonb_typeof(policy) = 'object'`)
@Check('scope_policies_version_positive', `version >= 1`)
@Check('scope_policies_counts_not_negative', `user_streams >= 0 AND active_segments >= 0`)
export class ScopePolicyEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'scope_policies_pkey',
  })
  scopeName!: string;

  @Column({ name: 'policy', type: 'jsonb' })
  policy!: ScopePolicy;

  /** Moved by every PUT: the last part of the policy's entity tag. */
  @Column({ name: 'version', type: 'bigint', default: 1 })
  version!: string;

  /**
   * The scope's user streams (sealed ones too), which `maxStreams` limits. Moved by triggers on
   * `streams` and counted when the row is inserted (migration PolicyCounts), which TypeORM
   * cannot declare: docs/ARCHITECTURE.md, "Counts a policy limits".
   */
  @Column({ name: 'user_streams', type: 'integer', default: 0 })
  userStreams!: number;

  /** The active segments of the scope's active user streams, which `maxActiveSegments` limits; as above. */
  @Column({ name: 'active_segments', type: 'integer', default: 0 })
  activeSegments!: number;

  /** A scope's policy goes with the scope. */
  @ManyToOne(() => ScopeEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'scope_name',
    referencedColumnName: 'name',
    foreignKeyConstraintName: 'scope_policies_scope_name_fkey',
  })
  scope?: Relation<ScopeEntity>;
}
