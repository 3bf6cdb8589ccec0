import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An event of the change feed, kept as the JSON it is sent as (without its id), with the two
 * columns a reader filters on. Its id is taken at commit from {@link ChangeFeedEntity}.
 */
@Entity({ name: 'change_events' })
// A scope's events, in feed order.
@Index('change_events_scope_idx', ['scopeName', 'id'])
export class ChangeEventEntity {
  /** A `bigint`, as text: ids may outgrow a double. */
  @PrimaryColumn({ name: 'id', type: 'bigint', primaryKeyConstraintName: 'change_events_pkey' })
  id!: string;

  @CreateDateColumn({ name: 'at', type: 'timestamptz', default: () => 'now()' })
  at!: Date;

  @Column({ name: 'scope_name', type: 'text' })
  scopeName!: string;

  @Column({ name: 'resource', type: 'text' })
  resource!: string;

  @Column({ name: 'body', type: 'text' })
  body!: string;
}
