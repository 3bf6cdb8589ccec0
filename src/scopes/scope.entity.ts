import { Check, Column, CreateDateColumn, Entity, PrimaryColumn, VirtualColumn } from 'typeorm';
import { createdMicros } from '../database/column-transformers';

/** A scope: a name that streams and reader groups live under (migration ScopesAndStreams). */
@Entity({ name: 'scopes' })
@Check('scopes_name_valid', `name ~ '^[A-Za-z0-9.-]{1,255}$'`)
export class ScopeEntity {
  @PrimaryColumn({ name: 'name', type: 'text', primaryKeyConstraintName: 'scopes_pkey' })
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** Incremented by every change: the second half of the entity tag. */
  @Column({ name: 'version', type: 'bigint', default: 1 })
  version!: string;

  /** The creation instant in µs, as text: the first half of the entity tag. */
  @VirtualColumn({ type: 'text', query: createdMicros })
  created!: string;
}
