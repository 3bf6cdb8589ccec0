import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { bigintAsNumber } from '../database/column-transformers';
import { ReaderGroupEntity } from '../reader-groups/reader-group.entity';
import { ScopeEntity } from '../scopes/scope.entity';
import type { RetentionPolicy, RetentionType } from './retention-policy';
import type { ScalingPolicy, ScalingType } from './scaling-policy';
import type { Stream, StreamState } from './stream';
import type { StreamConfiguration } from './stream-configuration';
import { VersionedEntity } from '../database/versioned-entity';

/**
 * A stream, user or internal (`_MARK<stream>`, the companion a stream owns; `_RG<group>`, the
 * state of a reader group). Its configuration is flat here: a PUT replaces every column at once.
 * Every rule a concurrent writer could break is a constraint (migrations ScopesAndStreams,
 * EpochsAndReaderGroups). `tributary_tags_valid` is a SQL function of migration ScopesAndStreams.
 */
@Entity({ name: 'streams' })
@Check('streams_name_valid', `name ~ '^(_MARK)?(_RG)?[A-Za-z0-9.-]{1,250}$'`)
@Check(
  'streams_companion_named',
  `(name LIKE '\\_MARK%') = (owner_stream IS NOT NULL)
   AND (owner_stream IS NULL OR name = '_MARK' || owner_stream)`,
)
@Check(
  'streams_reader_group_named',
  `(name LIKE '\\_RG%') = (owner_reader_group IS NOT NULL)
   AND (owner_reader_group IS NULL OR name = '_RG' || owner_reader_group)`,
)
@Check('streams_state_valid', `state IN ('ACTIVE', 'SEALED')`)
@Check(
  'streams_scaling_valid',
  `min_segments BETWEEN 1 AND 10000 AND (
     (scaling_type = 'FIXED_NUM_SEGMENTS' AND target_rate IS NULL AND scale_factor IS NULL)
     OR (scaling_type IN ('BY_RATE_IN_KBYTES_PER_SEC', 'BY_RATE_IN_EVENTS_PER_SEC')
         AND target_rate > 0 AND scale_factor > 0))`,
)
@Check(
  'streams_retention_valid',
  `(retention_type IS NULL AND retention_min IS NULL AND retention_max IS NULL)
   OR (retention_type IN ('LIMITED_DAYS', 'LIMITED_SIZE_MB') AND retention_min >= 0
       AND (retention_max IS NULL OR retention_max >= retention_min))`,
)
@Check('streams_tags_valid', `tributary_tags_valid(tags)`)
@Check('streams_rollover_valid', `rollover_size_bytes >= 0`)
@Check('streams_aggregation_timeout_valid', `timestamp_aggregation_timeout >= 0`)
// Lists by name, user and internal streams apart (migration Pagination): the predicates are
// spelled as the repository's, so the planner uses them.
@Index('streams_user_names_idx', ['scopeName', 'name'], { where: `name NOT LIKE '\\_%'` })
@Index('streams_internal_names_idx', ['scopeName', 'name'], { where: `name LIKE '\\_%'` })
// List by tag reads this index, never the whole scope.
@Index('streams_tags_idx', ['tags'], { type: 'gin' })
export class StreamEntity extends VersionedEntity {
  @PrimaryColumn({ name: 'scope_name', type: 'text', primaryKeyConstraintName: 'streams_pkey' })
  scopeName!: string;

  @PrimaryColumn({ name: 'name', type: 'text', primaryKeyConstraintName: 'streams_pkey' })
  name!: string;

  /** The stream a `_MARK` companion belongs to. */
  @Column({ name: 'owner_stream', type: 'text', nullable: true })
  ownerStream!: string | null;

  /** The reader group an `_RG` stream holds the state of. */
  @Column({ name: 'owner_reader_group', type: 'text', nullable: true })
  ownerReaderGroup!: string | null;

  @Column({ name: 'state', type: 'text', default: 'ACTIVE' })
  state!: StreamState;

  @Column({ name: 'scaling_type', type: 'text' })
  scalingType!: ScalingType;

  @Column({ name: 'min_segments', type: 'integer' })
  minSegments!: number;

  @Column({ name: 'target_rate', type: 'integer', nullable: true })
  targetRate!: number | null;

  @Column({ name: 'scale_factor', type: 'integer', nullable: true })
  scaleFactor!: number | null;

  @Column({ name: 'retention_type', type: 'text', nullable: true })
  retentionType!: RetentionType | null;

  /** Minutes for `LIMITED_DAYS`, MiB for `LIMITED_SIZE_MB`. */
  @Column({ name: 'retention_min', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  retentionMin!: number | null;

  @Column({ name: 'retention_max', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  retentionMax!: number | null;

  @Column({ name: 'tags', type: 'text', array: true, default: () => `'{}'` })
  tags!: string[];

  @Column({ name: 'rollover_size_bytes', type: 'bigint', default: 0, transformer: bigintAsNumber })
  rolloverSizeBytes!: number;

  @Column({
    name: 'timestamp_aggregation_timeout',
    type: 'bigint',
    default: 0,
    transformer: bigintAsNumber,
  })
  timestampAggregationTimeout!: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  /** A scope with streams cannot be deleted. */
  @ManyToOne(() => ScopeEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({
    name: 'scope_name',
    referencedColumnName: 'name',
    foreignKeyConstraintName: 'streams_scope_name_fkey',
  })
  scope?: Relation<ScopeEntity>;

  /** A companion goes with its stream. */
  @ManyToOne(() => StreamEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'scope_name',
      referencedColumnName: 'scopeName',
      foreignKeyConstraintName: 'streams_owner_fk',
    },
    {
      name: 'owner_stream',
      referencedColumnName: 'name',
      foreignKeyConstraintName: 'streams_owner_fk',
    },
  ])
  owner?: Relation<StreamEntity>;

  /** A group's `_RG` stream goes with the group. */
  @ManyToOne(() => ReaderGroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'scope_name',
      referencedColumnName: 'scopeName',
      foreignKeyConstraintName: 'streams_reader_group_fk',
    },
    {
      name: 'owner_reader_group',
      referencedColumnName: 'name',
      foreignKeyConstraintName: 'streams_reader_group_fk',
    },
  ])
  readerGroup?: Relation<ReaderGroupEntity>;
}

/** The configuration columns of a stream: what a PUT replaces all at once. */
export const CONFIGURATION_PROPERTIES = [
  'scalingType',
  'minSegments',
  'targetRate',
  'scaleFactor',
  'retentionType',
  'retentionMin',
  'retentionMax',
  'tags',
  'rolloverSizeBytes',
  'timestampAggregationTimeout',
] as const;

export type ConfigurationColumns = Pick<StreamEntity, (typeof CONFIGURATION_PROPERTIES)[number]>;

/** How a configuration is stored: flat, in columns. */
export function configurationColumns(config: StreamConfiguration): ConfigurationColumns {
  return {
    scalingType: config.scaling.type,
    minSegments: config.scaling.minSegments,
    targetRate: config.scaling.targetRate ?? null,
    scaleFactor: config.scaling.scaleFactor ?? null,
    retentionType: config.retention?.type ?? null,
    retentionMin: config.retention?.min ?? null,
    retentionMax: config.retention?.max ?? null,
    tags: config.tags,
    rolloverSizeBytes: config.rolloverSizeBytes,
    timestampAggregationTimeout: config.timestampAggregationTimeout,
  };
}

function scalingOf(row: ConfigurationColumns): ScalingPolicy {
  const { scalingType: type, minSegments } = row;
  if (type === 'FIXED_NUM_SEGMENTS') return { type, minSegments };
  return {
    type,
    ...(row.targetRate === null ? {} : { targetRate: row.targetRate }),
    ...(row.scaleFactor === null ? {} : { scaleFactor: row.scaleFactor }),
    minSegments,
  };
}

function retentionOf(row: ConfigurationColumns): RetentionPolicy | undefined {
  const { retentionType: type, retentionMin: min, retentionMax: max } = row;
  if (type === null || min === null) return undefined;
  return max === null ? { type, min } : { type, min, max };
}

/** The configuration a stream's columns hold. */
export function configurationOf(row: ConfigurationColumns): StreamConfiguration {
  const retention = retentionOf(row);
  return {
    scaling: scalingOf(row),
    ...(retention ? { retention } : {}),
    tags: row.tags,
    rolloverSizeBytes: row.rolloverSizeBytes,
    timestampAggregationTimeout: row.timestampAggregationTimeout,
  };
}

/** A stream of a list: without its version, which no list shows. */
export type ListedStream = Omit<Stream, 'revision'>;

/** What a list reads of a stream: what it shows, no more. */
export const LISTED_PROPERTIES = [
  'scopeName',
  'name',
  'state',
  ...CONFIGURATION_PROPERTIES,
] as const;

/** The stream of a list that the listed columns hold. */
export const listedStreamOf = (
  row: Pick<StreamEntity, (typeof LISTED_PROPERTIES)[number]>,
): ListedStream => ({
  scopeName: row.scopeName,
  name: row.name,
  state: row.state,
  configuration: configurationOf(row),
});

/** What a read of one stream reads: what a list does, and the version. */
export const STREAM_PROPERTIES = [...LISTED_PROPERTIES, 'created', 'version'] as const;

/**
 * The stream an entity holds, with its version: the read of every GET of a stream, written out
 * rather than spread from {@link listedStreamOf}, whose copy cost a GET about 2 µs of CPU.
 */
export const streamOf = (
  entity: Pick<StreamEntity, (typeof STREAM_PROPERTIES)[number]>,
): Stream => ({
  scopeName: entity.scopeName,
  name: entity.name,
  state: entity.state,
  configuration: configurationOf(entity),
  revision: { created: entity.created, version: entity.version },
});
