import {
  Check,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { ReaderGroupEntity } from './reader-group.entity';

/** A reader online in a reader group. */
@Entity({ name: 'reader_group_readers' })
@Check('reader_group_readers_id_valid', `reader_id ~ '^[A-Za-z0-9.-]{1,250}$'`)
export class ReaderGroupReaderEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'reader_group_readers_pkey',
  })
  scopeName!: string;

  @PrimaryColumn({
    name: 'reader_group',
    type: 'text',
    primaryKeyConstraintName: 'reader_group_readers_pkey',
  })
  readerGroup!: string;

  @PrimaryColumn({
    name: 'reader_id',
    type: 'text',
    primaryKeyConstraintName: 'reader_group_readers_pkey',
  })
  readerId!: string;

  @CreateDateColumn({ name: 'online_since', type: 'timestamptz', default: () => 'now()' })
  onlineSince!: Date;

  @ManyToOne(() => ReaderGroupEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'scope_name',
      referencedColumnName: 'scopeName',
      foreignKeyConstraintName: 'reader_group_readers_scope_name_reader_group_fkey',
    },
    {
      name: 'reader_group',
      referencedColumnName: 'name',
      foreignKeyConstraintName: 'reader_group_readers_scope_name_reader_group_fkey',
    },
  ])
  group?: Relation<ReaderGroupEntity>;
}
