import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What a transaction moved of a policed scope's counts, noted by the counting triggers and
 * settled onto the scope's counts when the transaction commits (migration PolicyCountsAtCommit;
 * docs/ARCHITECTURE.md, "Counts a policy limits"). No code of the service writes or reads it;
 * the table is unlogged, which TypeORM cannot declare, as its rows never outlive their
 * transaction.
 */
@Entity({ name: 'scope_policy_count_changes' })
export class ScopePolicyCountChangeEntity {
  /** The transaction's id (`pg_current_xact_id()`). */
  @PrimaryColumn({
    name: 'xact',
    type: 'bigint',
    primaryKeyConstraintName: 'scope_policy_count_changes_pkey',
  })
  xact!: string;

  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'scope_policy_count_changes_pkey',
  })
  scopeName!: string;

  /** User streams added (or, negative, removed). */
  @Column({ name: 'streams', type: 'integer' })
  streams!: number;

  /** Active segments opened (or, negative, sealed). */
  @Column({ name: 'segments', type: 'integer' })
  segments!: number;
}
