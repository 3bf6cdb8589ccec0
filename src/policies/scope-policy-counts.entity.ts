import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ScopePolicyEntity } from './scope-policy.entity';

/**
 * What a scope's count limits are held to, from its first policy on: counted when that policy is
 * set, then moved by the commits of the changes that write its streams (migrations PolicyCounts
 * and PolicyCountsAtCommit, whose triggers TypeORM cannot declare; docs/ARCHITECTURE.md, "Counts
 * a policy limits"). A row of its own, not columns of the policy's: a commit that settles them
 * must not wait for a PUT of the policy.
 */
@Entity({ name: 'scope_policy_counts' })
@Check('scope_policy_counts_not_negative', `user_streams >= 0 AND active_segments >= 0`)
export class ScopePolicyCountsEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'scope_policy_counts_pkey',
  })
  scopeName!: string;

  /** The scope's user streams (sealed ones too), which `maxStreams` limits. */
  @Column({ name: 'user_streams', type: 'integer', default: 0 })
  userStreams!: number;

  /** The active segments of the scope's active user streams, which `maxActiveSegments` limits. */
  @Column({ name: 'active_segments', type: 'integer', default: 0 })
  activeSegments!: number;

  /** The counts go with the policy. */
  @OneToOne(() => ScopePolicyEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'scope_name',
    referencedColumnName: 'scopeName',
    foreignKeyConstraintName: 'scope_policy_counts_scope_name_fkey',
  })
  policy?: Relation<ScopePolicyEntity>;
}
