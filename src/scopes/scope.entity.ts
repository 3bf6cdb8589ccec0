import { Check, Entity, PrimaryColumn } from 'typeorm';
import { VersionedEntity } from '../database/versioned-entity';

/** A scope: a name that streams and reader groups live under (migration ScopesAndStreams). */
@Entity({ name: 'scopes' })
@Check('scopes_name_valid', `name ~ '^[A-Za-z0-9.-]{1,255}$'`)
export class ScopeEntity extends VersionedEntity {
  @PrimaryColumn({ name: 'name', type: 'text', primaryKeyConstraintName: 'scopes_pkey' })
  name!: string;
}
