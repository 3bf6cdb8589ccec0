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

  /** A scope's policy goes with the scope. */
  @ManyToOne(() => ScopeEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'scope_name',
    referencedColumnName: 'name',
    foreignKeyConstraintName: 'scope_policies_scope_name_fkey',
  })
  scope?: Relation<ScopeEntity>;
}
