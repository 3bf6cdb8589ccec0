import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The answer of a POST sent with an `Idempotency-Key`, kept for its retries. Written in the
 * transaction of the change it answers; `status` is null only inside that transaction.
 */
@Entity({ name: 'idempotency_records' })
// The background purge takes the oldest expired rows first.
@Index('idempotency_records_created_at_idx', ['createdAt'])
export class IdempotencyRecordEntity {
  /** Keys belong to their principal: the same key of two accounts is two entries. */
  @PrimaryColumn({
    name: 'principal',
    type: 'text',
    primaryKeyConstraintName: 'idempotency_records_pkey',
  })
  principal!: string;

  @PrimaryColumn({
    name: 'key',
    type: 'text',
    primaryKeyConstraintName: 'idempotency_records_pkey',
  })
  key!: string;

  @Column({ name: 'method', type: 'text' })
  method!: string;

  @Column({ name: 'path', type: 'text' })
  path!: string;

  @Column({ name: 'body_digest', type: 'text' })
  bodyDigest!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'status', type: 'integer', nullable: true })
  status!: number | null;

  @Column({ name: 'body', type: 'text', nullable: true })
  body!: string | null;

  @Column({ name: 'headers', type: 'jsonb', default: () => `'{}'` })
  headers!: Record<string, string>;
}
