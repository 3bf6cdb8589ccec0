import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { bigintAsNumber } from '../database/column-transformers';
import { StreamEntity } from '../streams/stream.entity';

/**
 * A stream that has had a report of its load taken (migration LoadReports): only these are
 * ever scaled by silence, which counts from the first report for a segment never reported.
 */
@Entity({ name: 'stream_loads' })
export class StreamLoadEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'stream_loads_pkey',
  })
  scopeName!: string;

  @PrimaryColumn({
    name: 'stream_name',
    type: 'text',
    primaryKeyConstraintName: 'stream_loads_pkey',
  })
  streamName!: string;

  /** When its first report was taken, ms since 1970. */
  @Column({ name: 'first_report', type: 'bigint', transformer: bigintAsNumber })
  firstReport!: number;

  /** Its memory goes with the stream. */
  @ManyToOne(() => StreamEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'scope_name',
      referencedColumnName: 'scopeName',
      foreignKeyConstraintName: 'stream_loads_stream_fkey',
    },
    {
      name: 'stream_name',
      referencedColumnName: 'name',
      foreignKeyConstraintName: 'stream_loads_stream_fkey',
    },
  ])
  stream?: Relation<StreamEntity>;
}
