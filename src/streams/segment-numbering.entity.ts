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

/**
 * The next segment number of a stream name. It outlives its stream (no key to `streams`): a
 * stream created again continues the numbering of its predecessor.
 */
@Entity({ name: 'segment_numbering' })
@Check('segment_numbering_next_number_check', 'next_number >= 0')
export class SegmentNumberingEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'segment_numbering_pkey',
  })
  scopeName!: string;

  @PrimaryColumn({
    name: 'stream_name',
    type: 'text',
    primaryKeyConstraintName: 'segment_numbering_pkey',
  })
  streamName!: string;

  @Column({ name: 'next_number', type: 'integer' })
  nextNumber!: number;

  @ManyToOne(() => ScopeEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'scope_name',
    referencedColumnName: 'name',
    foreignKeyConstraintName: 'segment_numbering_scope_name_fkey',
  })
  scope?: Relation<ScopeEntity>;
}
