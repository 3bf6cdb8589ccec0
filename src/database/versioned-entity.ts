import { Column, CreateDateColumn, VirtualColumn } from 'typeorm';
import { createdMicros } from './column-transformers';

/**
 * The columns of a resource with an entity tag (scopes, streams, reader groups): when it was
 * created and its version, which every change increments (docs/extensions.md section 2). Its
 * entities extend this class, so each table has these columns as its own.
 */
export abstract class VersionedEntity {
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** Incremented by every change: the second half of the entity tag. */
  @Column({ name: 'version', type: 'bigint', default: 1 })
  version!: string;

  /** The creation instant in µs, as text: the first half of the entity tag. */
  @VirtualColumn({ type: 'text', query: createdMicros })
  created!: string;
}
