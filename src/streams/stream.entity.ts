import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintToNumber } from '../database/bigint.transformer';
import type { RetentionType } from './retention-policy';
import type { ScalingType } from './scaling-policy';

export type StreamState = 'ACTIVE' | 'SEALED';

@Entity({ name: 'streams' })
export class StreamEntity {
  @PrimaryColumn({ name: 'scope_name', type: 'text' })
  scopeName: string;

  @PrimaryColumn({ type: 'text' })
  name: string;

  /** For a `_MARK` companion: the user stream it belongs to (deleted with it). */
  @Column({ name: 'owner_stream', type: 'text', nullable: true })
  ownerStream: string | null;

  /** For a reader group's `_RG` stream: the group it belongs to (deleted with it). */
  @Column({ name: 'owner_reader_group', type: 'text', nullable: true })
  ownerReaderGroup: string | null;

  @Column({ type: 'text' })
  state: StreamState;

  @Column({ name: 'scaling_type', type: 'text' })
  scalingType: ScalingType;

  @Column({ name: 'min_segments', type: 'integer' })
  minSegments: number;

  @Column({ name: 'target_rate', type: 'integer', nullable: true })
  targetRate: number | null;

  @Column({ name: 'scale_factor', type: 'integer', nullable: true })
  scaleFactor: number | null;

  @Column({ name: 'retention_type', type: 'text', nullable: true })
  retentionType: RetentionType | null;

  /** Minutes for `LIMITED_DAYS`, MiB for `LIMITED_SIZE_MB`. */
  @Column({ name: 'retention_min', type: 'bigint', nullable: true, transformer: bigintToNumber })
  retentionMin: number | null;

  @Column({ name: 'retention_max', type: 'bigint', nullable: true, transformer: bigintToNumber })
  retentionMax: number | null;

  @Column({ type: 'text', array: true })
  tags: string[];

  @Column({ name: 'rollover_size_bytes', type: 'bigint', transformer: bigintToNumber })
  rolloverSizeBytes: number;

  @Column({ name: 'timestamp_aggregation_timeout', type: 'bigint', transformer: bigintToNumber })
  timestampAggregationTimeout: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
