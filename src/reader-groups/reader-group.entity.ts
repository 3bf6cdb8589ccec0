import { Check, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ScopeEntity } from '../scopes/scope.entity';
import { VersionedEntity } from '../database/versioned-entity';

/**
 * A reader group of a scope. Its streams and online readers are rows of their own; its state is
 * the `_RG<group>` stream it owns. Its version also moves when a stream it reads is deleted (a
 * trigger of migration ReaderGroupVersionOnStreamDelete).
 */
@Entity({ name: 'reader_groups' })
@Check('reader_groups_name_valid', `name ~ '^[A-Za-z0-9.-]{1,250}$'`)
export class ReaderGroupEntity extends VersionedEntity {
  @PrimaryColumn({
    name: 'scope_name',
    type: 'text',
    primaryKeyConstraintName: 'reader_groups_pkey',
  })
  scopeName!: string;

  @PrimaryColumn({ name: 'name', type: 'text', primaryKeyConstraintName: 'reader_groups_pkey' })
  name!: string;

  /** A scope with reader groups cannot be deleted. */
  @ManyToOne(() => ScopeEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({
    name: 'scope_name',
    referencedColumnName: 'name',
    foreignKeyConstraintName: 'reader_groups_scope_name_fkey',
  })
  scope?: Relation<ScopeEntity>;
}
