import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Paging (docs/extensions.md section 1): the key that signs continuation tokens, and the indexes that
 * make each page one index range scan.
 */
export class Pagination1764200000000 implements MigrationInterface {
  name = 'Pagination1764200000000';

  async up(db: QueryRunner): Promise<void> {
    // One key for every instance on this database, made here so that no secret lives in the
    // repository and a restart keeps the tokens it issued valid. Two random UUIDs: 244 bits from
    // PostgreSQL's strong random source, without the pgcrypto extension.
    await db.query(`
      CREATE TABLE pagination_key (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        key      bytea   NOT NULL CHECK (length(key) >= 32)
      )`);
    await db.query(
      `INSERT INTO pagination_key (key)
       VALUES (uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))`,
    );
    // User and internal streams by name: internal names (`_MARK...`, `_RG...`) sort together, so
    // without these a page of one kind would first step over every stream of the other.
    await db.query(
      `CREATE INDEX streams_user_names_idx ON streams (scope_name, name) WHERE name NOT LIKE '\\_%'`,
    );
    await db.query(
      `CREATE INDEX streams_internal_names_idx ON streams (scope_name, name) WHERE name LIKE '\\_%'`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX streams_internal_names_idx`);
    await db.query(`DROP INDEX streams_user_names_idx`);
    await db.query(`DROP TABLE pagination_key`);
  }
}
