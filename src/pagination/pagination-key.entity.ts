import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** The one key every instance protects continuation tokens with (migration Pagination). */
@Entity({ name: 'pagination_key' })
@Check('pagination_key_only_row_check', 'only_row')
@Check('pagination_key_key_check', 'length(key) >= 32')
export class PaginationKeyEntity {
  @PrimaryColumn({
    name: 'only_row',
    type: 'boolean',
    default: true,
    primaryKeyConstraintName: 'pagination_key_pkey',
  })
  onlyRow!: boolean;

  @Column({ name: 'key', type: 'bytea' })
  key!: Buffer;
}
