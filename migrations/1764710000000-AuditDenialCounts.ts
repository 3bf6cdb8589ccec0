import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail counts what it cannot afford to keep one row each of (docs/extensions.md
 * section 12): the requests refused for want of valid credentials are one row per client
 * address and minute (`denial_minute`), whose `request_count` grows with each. Every other
 * row, those written before included, stands for one request. The unique index makes the count
 * the database's: instances counting the same address at once add to one row.
 */
export class AuditDenialCounts1764710000000 implements MigrationInterface {
  name = 'AuditDenialCounts1764710000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE audit_events
        ADD COLUMN request_count integer NOT NULL DEFAULT 1,
        ADD COLUMN denial_minute timestamptz,
        ADD CONSTRAINT audit_events_request_count_positive CHECK (request_count >= 1),
        ADD CONSTRAINT audit_events_denial_minute_of_denials
          CHECK (denial_minute IS NULL OR outcome = 'DENIED')`);
    // An address may be unknown (a connection gone before it was read): those share a row too.
    await db.query(`
      CREATE UNIQUE INDEX audit_events_denials_per_minute_idx
        ON audit_events ((COALESCE(client_address, '')), denial_minute)
        WHERE denial_minute IS NOT NULL`);
  }

  /** The counts are dropped: a counted row is then read as the one refusal it names. */
  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX audit_events_denials_per_minute_idx`);
    await db.query(`
      ALTER TABLE audit_events
        DROP CONSTRAINT audit_events_denial_minute_of_denials,
        DROP CONSTRAINT audit_events_request_count_positive,
        DROP COLUMN denial_minute,
        DROP COLUMN request_count`);
  }
}
