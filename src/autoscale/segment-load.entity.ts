import {
  Check,
  Column,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { bigintAsNumber } from '../database/column-transformers';
import { StreamSegmentEntity } from '../streams/stream-segment.entity';

/**
 * What scaling by load remembers of a segment (docs/extensions.md section 11), shared by every
 * instance: its mutes, its cold mark and its last report, ms since 1970 (migration LoadReports).
 * A segment without a row has its start time as both mutes, no mark and no report.
 */
@Entity({ name: 'segment_loads' })
@Check('segment_loads_number_check', 'number >= 0')
export class SegmentLoadEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'segment_loads_pkey',
  })
  scopeName!: string;

  @PrimaryColumn({
    name: 'stream_name',
    type: 'text',
    primaryKeyConstraintName: 'segment_loads_pkey',
  })
  streamName!: string;

  @PrimaryColumn({
    name: 'number',
    type: 'integer',
    primaryKeyConstraintName: 'segment_loads_pkey',
  })
  number!: number;

  @Column({ name: 'last_up', type: 'bigint', transformer: bigintAsNumber })
  lastUp!: number;

  @Column({ name: 'last_down', type: 'bigint', transformer: bigintAsNumber })
  lastDown!: number;

  @Column({ name: 'cold_until', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  coldUntil!: number | null;

  @Column({ name: 'last_report', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  lastReport!: number | null;

  /** A segment's marks go with the segment (and so with its stream). */
  @ManyToOne(() => StreamSegmentEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'scope_name',
      referencedColumnName: 'scopeName',
      foreignKeyConstraintName: 'segment_loads_segment_fkey',
    },
    {
      name: 'stream_name',
      referencedColumnName: 'streamName',
      foreignKeyConstraintName: 'segment_loads_segment_fkey',
    },
    {
      name: 'number',
      referencedColumnName: 'number',
      foreignKeyConstraintName: 'segment_loads_segment_fkey',
    },
  ])
  segment?: Relation<StreamSegmentEntity>;
}
