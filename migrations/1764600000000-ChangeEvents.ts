import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed (docs/extensions.md section 8): one row per event, and the feed's position,
 * one row holding the id of the newest event.
 *
 * A change's transaction takes its events' ids from `change_feed` as its last statement before
 * COMMIT (an UPDATE, whose row lock is held until the transaction ends), so ids are taken one
 * transaction at a time, in the order the transactions commit, and without gaps: whoever sees
 * event N has seen every event below it. The event is kept as the JSON it is sent as (without
 * its id), with the two columns a reader filters on.
 */
export class ChangeEvents1764600000000 implements MigrationInterface {
  name = 'ChangeEvents1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE change_feed (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        last_id bigint NOT NULL CHECK (last_id >= 0)
      )`);
    await db.query(`INSERT INTO change_feed (last_id) VALUES (0)`);
    await db.query(`
      CREATE TABLE change_events (
        id bigint PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        scope_name text NOT NULL,
        resource text NOT NULL,
        body text NOT NULL
      )`);
    await db.query(`CREATE INDEX change_events_scope_idx ON change_events (scope_name, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE change_events`);
    await db.query(`DROP TABLE change_feed`);
  }
}
