import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
  Unique,
} from 'typeorm';
import { StreamEntity } from '../streams/stream.entity';
import { ReaderGroupEntity } from './reader-group.entity';

/**
 * A stream a reader group reads, at its place in the group's list. Deleting the stream takes it
 * out of the list (and moves the group's version, by trigger).
 */
@Entity({ name: 'reader_group_streams' })
@Unique('reader_group_streams_position_unique', ['scopeName', 'readerGroup', 'position'])
// The groups that read a stream.
@Index('reader_group_streams_stream_idx', ['streamScope', 'streamName'])
export class ReaderGroupStreamEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'reader_group_streams_pkey',
  })
  scopeName!: string;

  @PrimaryColumn({
    name: 'reader_group',
    type: 'text',
    primaryKeyConstraintName: 'reader_group_streams_pkey',
  })
  readerGroup!: string;

  @Column({ name: 'position', type: 'integer' })
  position!: number;

  @PrimaryColumn({
    name: 'stream_scope',
    type: 'text',
    primaryKeyConstraintName: 'reader_group_streams_pkey',
  })
  streamScope!: string;

  @PrimaryColumn({
    name: 'stream_name',
    type: 'text',
    primaryKeyConstraintName: 'reader_group_streams_pkey',
  })
  streamName!: string;

  @ManyToOne(() => ReaderGroupEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'scope_name',
      referencedColumnName: 'scopeName',
      foreignKeyConstraintName: 'reader_group_streams_scope_name_reader_group_fkey',
    },
    {
      name: 'reader_group',
      referencedColumnName: 'name',
      foreignKeyConstraintName: 'reader_group_streams_scope_name_reader_group_fkey',
    },
  ])
  group?: Relation<ReaderGroupEntity>;

  @ManyToOne(() => StreamEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'stream_scope',
      referencedColumnName: 'scopeName',
      foreignKeyConstraintName: 'reader_group_streams_stream_scope_stream_name_fkey',
    },
    {
      name: 'stream_name',
      referencedColumnName: 'name',
      foreignKeyConstraintName: 'reader_group_streams_stream_scope_stream_name_fkey',
    },
  ])
  stream?: Relation<StreamEntity>;
}
