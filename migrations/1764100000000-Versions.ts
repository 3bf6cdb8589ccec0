import { MigrationInterface, QueryRunner } from 'typeorm';

// TEMPORARY stand-in until the conditional branch lands.
export class Versions1764100000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    for (const table of ['scopes', 'streams', 'reader_groups']) {
      await db.query(`ALTER TABLE ${table} ADD COLUMN version bigint NOT NULL DEFAULT 1`);
    }
    await db.query(
      `CREATE FUNCTION bump_version() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.version := OLD.version + 1; RETURN NEW; END $$`,
    );
    await db.query(
      `CREATE TRIGGER streams_bump BEFORE UPDATE ON streams FOR EACH ROW EXECUTE FUNCTION bump_version()`,
    );
  }
  async down(): Promise<void> {}
}
