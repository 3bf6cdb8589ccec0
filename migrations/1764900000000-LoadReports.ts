import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What scaling by load remembers (docs/extensions.md section 11), shared by every instance: per
 * segment its mutes, its cold mark and its last report; per stream its first report. Generated
 * from the entities (`autoscale/*.entity.ts`); each row goes with its segment or stream.
 */
export class LoadReports1764900000000 implements MigrationInterface {
  name = 'LoadReports1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE "segment_loads" (
        "scope_name" text NOT NULL,
        "stream_name" text NOT NULL,
        "number" integer NOT NULL,
        "last_up" bigint NOT NULL,
        "last_down" bigint NOT NULL,
        "cold_until" bigint,
        "last_report" bigint,
        CONSTRAINT "segment_loads_number_check" CHECK (number >= 0),
        CONSTRAINT "segment_loads_pkey" PRIMARY KEY ("scope_name", "stream_name", "number")
      )`);
    await db.query(`
      CREATE TABLE "stream_loads" (
        "scope_name" text NOT NULL,
        "stream_name" text NOT NULL,
        "first_report" bigint NOT NULL,
        CONSTRAINT "stream_loads_pkey" PRIMARY KEY ("scope_name", "stream_name")
      )`);
    await db.query(`
      ALTER TABLE "segment_loads" ADD CONSTRAINT "segment_loads_segment_fkey"
        FOREIGN KEY ("scope_name", "stream_name", "number")
        REFERENCES "stream_segments"("scope_name", "stream_name", "number")
        ON DELETE CASCADE ON UPDATE NO ACTION`);
    await db.query(`
      ALTER TABLE "stream_loads" ADD CONSTRAINT "stream_loads_stream_fkey"
        FOREIGN KEY ("scope_name", "stream_name") REFERENCES "streams"("scope_name", "name")
        ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "stream_loads"`);
    await db.query(`DROP TABLE "segment_loads"`);
  }
}
