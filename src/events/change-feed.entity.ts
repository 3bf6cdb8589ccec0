import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The feed's position: one row, the id of the newest event. A change takes its events' ids
 * from it as its last statement before COMMIT, so ids follow commit order without gaps
 * (docs/extensions.md section 8).
 */
@Entity({ name: 'change_feed' })
@Check('change_feed_one_check', 'one')
@Check('change_feed_last_id_check', 'last_id >= 0')
export class ChangeFeedEntity {
  @PrimaryColumn({
    name: 'one',
    type: 'boolean',
    default: true,
    primaryKeyConstraintName: 'change_feed_pkey',
  })
  one!: boolean;

  @Column({ name: 'last_id', type: 'bigint' })
  lastId!: string;
}
