import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stream's recent scales by load (docs/extensions.md section 11) are its audit rows of
 * operation `reportLoad`: a partial index of those alone, newest first, so that reading them
 * never walks the stream's other changes nor other streams' scales. Built once, small: only
 * scales by load enter it.
 */
export class LoadScalesIndex1764960000000 implements MigrationInterface {
  name = 'LoadScalesIndex1764960000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE INDEX audit_events_load_scales_idx ON audit_events (resource, at DESC, id DESC)
       WHERE operation = 'reportLoad' AND outcome = 'SUCCEEDED'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX audit_events_load_scales_idx`);
  }
}
