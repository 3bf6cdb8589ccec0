import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reader group's stream list loses a stream when that stream is deleted (the foreign key
 * cascades), and the group's version must then move, or a client holding its old entity tag
 * would be told nothing changed. The database moves it, for every way a stream can go, so the
 * streams' statements never write the reader groups' tables. A group deleted with its list
 * (the same cascade) is simply not found by the update.
 */
export class ReaderGroupVersionOnStreamDelete1764400000000 implements MigrationInterface {
  name = 'ReaderGroupVersionOnStreamDelete1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION reader_group_stream_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE reader_groups SET version = version + 1
         WHERE scope_name = OLD.scope_name AND name = OLD.reader_group;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER reader_group_stream_removed AFTER DELETE ON reader_group_streams
        FOR EACH ROW EXECUTE FUNCTION reader_group_stream_removed()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER reader_group_stream_removed ON reader_group_streams`);
    await db.query(`DROP FUNCTION reader_group_stream_removed()`);
  }
}
