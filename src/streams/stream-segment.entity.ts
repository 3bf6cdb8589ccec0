import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { bigintAsNumber } from '../database/column-transformers';
import { StreamEpochEntity } from './stream-epoch.entity';

/**
 * One segment of a stream over its whole life: opened by epoch `createdIn` over its key range,
 * sealed by epoch `sealedIn` (or alive still).
 */
@Entity({ name: 'stream_segments' })
@Check('stream_segments_number_check', 'number >= 0')
@Check('stream_segments_range_valid', '0 <= key_start AND key_start < key_end AND key_end <= 1')
@Check('stream_segments_life_valid', 'sealed_in IS NULL OR sealed_in > created_in')
// A window's segments: those opened after its first epoch.
@Index('stream_segments_created_idx', ['scopeName', 'streamName', 'createdIn'])
// A segment's successors: those its sealing epoch opened, found from the segments it sealed.
@Index('stream_segments_sealed_idx', ['scopeName', 'streamName', 'sealedIn'])
// The segments alive in an epoch: a GiST index on the expression
// `int4range(created_in, sealed_in)` (migration SegmentLives), which TypeORM cannot declare.
@Index('stream_segments_life_idx', { synchronize: false })
export class StreamSegmentEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'stream_segments_pkey',
  })
  scopeName!: string;

  @PrimaryColumn({
    name: 'stream_name',
    type: 'text',
    primaryKeyConstraintName: 'stream_segments_pkey',
  })
  streamName!: string;

  @PrimaryColumn({
    name: 'number',
    type: 'integer',
    primaryKeyConstraintName: 'stream_segments_pkey',
  })
  number!: number;

  @Column({ name: 'created_in', type: 'integer' })
  createdIn!: number;

  @Column({ name: 'sealed_in', type: 'integer', nullable: true })
  sealedIn!: number | null;

  /** When its epoch opened it, in ms since 1970. */
  @Column({ name: 'start_time', type: 'bigint', transformer: bigintAsNumber })
  startTime!: number;

  @Column({ name: 'key_start', type: 'double precision' })
  keyStart!: number;

  @Column({ name: 'key_end', type: 'double precision' })
  keyEnd!: number;

  /** The epoch that opened it: the segments go with the history. */
  @ManyToOne(() => StreamEpochEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'scope_name',
      referencedColumnName: 'scopeName',
      foreignKeyConstraintName: 'stream_segments_scope_name_stream_name_created_in_fkey',
    },
    {
      name: 'stream_name',
      referencedColumnName: 'streamName',
      foreignKeyConstraintName: 'stream_segments_scope_name_stream_name_created_in_fkey',
    },
    {
      name: 'created_in',
      referencedColumnName: 'epoch',
      foreignKeyConstraintName: 'stream_segments_scope_name_stream_name_created_in_fkey',
    },
  ])
  openedBy?: Relation<StreamEpochEntity>;
}
