import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A version per scope, stream and reader group: the entity tags of conditional requests
 * (docs/extensions.md section 2). Each change increments it in the statement that makes the change,
 * so a reader never sees a change without its version. Existing rows start at 1, as new ones do.
 */
export class Versions1764100000000 implements MigrationInterface {
  name = 'Versions1764100000000';

  async up(db: QueryRunner): Promise<void> {
    for (const table of ['scopes', 'streams', 'reader_groups']) {
      await db.query(`ALTER TABLE ${table} ADD COLUMN version bigint NOT NULL DEFAULT 1`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['reader_groups', 'streams', 'scopes']) {
      await db.query(`ALTER TABLE ${table} DROP COLUMN version`);
    }
  }
}
