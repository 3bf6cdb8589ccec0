import {
  Check,
  Column,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
  Unique,
} from 'typeorm';
import { bigintAsNumber } from '../database/column-transformers';
import { StreamEntity } from './stream.entity';

/**
 * One epoch of a stream's history: the moment (ms since 1970) a scale took effect. The segments
 * it opened and sealed say which are active in it (migration SegmentLives).
 */
@Entity({ name: 'stream_epochs' })
@Unique('stream_epochs_time_unique', ['scopeName', 'streamName', 'createdAt'])
@Check('stream_epochs_epoch_check', 'epoch >= 0')
@Check('stream_epochs_created_at_check', 'created_at >= 0')
export class StreamEpochEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'stream_epochs_pkey',
  })
  scopeName!: string;

  @PrimaryColumn({
    name: 'stream_name',
    type: 'text',
    primaryKeyConstraintName: 'stream_epochs_pkey',
  })
  streamName!: string;

  @PrimaryColumn({ name: 'epoch', type: 'integer', primaryKeyConstraintName: 'stream_epochs_pkey' })
  epoch!: number;

  /** Milliseconds since 1970, as the contract's scaling events show it. */
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt!: number;

  /** The history goes with its stream. */
  @ManyToOne(() => StreamEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'scope_name',
      referencedColumnName: 'scopeName',
      foreignKeyConstraintName: 'stream_epochs_scope_name_stream_name_fkey',
    },
    {
      name: 'stream_name',
      referencedColumnName: 'name',
      foreignKeyConstraintName: 'stream_epochs_scope_name_stream_name_fkey',
    },
  ])
  stream?: Relation<StreamEntity>;
}
