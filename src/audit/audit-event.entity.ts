import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Who changed what, and which requests were denied: written with the change it records. */
@Entity({ name: 'audit_events' })
@Check('audit_events_outcome_valid', `outcome IN ('SUCCEEDED', 'DENIED')`)
@Check('audit_events_request_count_positive', 'request_count >= 1')
@Check('audit_events_denial_minute_of_denials', `denial_minute IS NULL OR outcome = 'DENIED'`)
// Newest first, overall or for one resource or principal: `(…, at DESC, id DESC)` in migration
// AuditEvents. TypeORM cannot declare a column's order, so these are not compared.
@Index('audit_events_at_idx', { synchronize: false })
@Index('audit_events_resource_idx', { synchronize: false })
@Index('audit_events_principal_idx', { synchronize: false })
// A stream's scales by load, newest first: `(resource, at DESC, id DESC)` of its rows of operation
// `reportLoad` alone, in migration LoadScalesIndex.
@Index('audit_events_load_scales_idx', { synchronize: false })
// The 401s of a client address, one row a minute (migration AuditDenialCounts): a unique index on
// `(COALESCE(client_address, ''), denial_minute)`, an expression TypeORM cannot declare.
@Index('audit_events_denials_per_minute_idx', { synchronize: false })
export class AuditEventEntity {
  @PrimaryGeneratedColumn({
    name: 'id',
    type: 'bigint',
    primaryKeyConstraintName: 'audit_events_pkey',
  })
  id!: string;

  @CreateDateColumn({ name: 'at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  at!: Date;

  @Column({ name: 'principal', type: 'text' })
  principal!: string;

  @Column({ name: 'client_address', type: 'text', nullable: true })
  clientAddress!: string | null;

  @Column({ name: 'user_agent', type: 'text', nullable: true })
  userAgent!: string | null;

  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId!: string | null;

  @Column({ name: 'operation', type: 'text' })
  operation!: string;

  @Column({ name: 'resource', type: 'text' })
  resource!: string;

  @Column({ name: 'outcome', type: 'text' })
  outcome!: 'SUCCEEDED' | 'DENIED';

  @Column({ name: 'before', type: 'jsonb', nullable: true })
  before!: object | null;

  @Column({ name: 'after', type: 'jsonb', nullable: true })
  after!: object | null;

  /** How many requests the row stands for: a minute's 401s of one address, else 1. */
  @Column({ name: 'request_count', type: 'integer', default: 1 })
  requestCount!: number;

  /** The minute (UTC) of a counted row's 401s; null for every other row. */
  @Column({ name: 'denial_minute', type: 'timestamptz', nullable: true })
  denialMinute!: Date | null;
}
