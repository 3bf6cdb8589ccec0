import { MigrationInterface, QueryRunner } from 'typeorm';

/** Who changed what, and which requests were denied: written with the change it records. */
export class AuditEvents1764000000000 implements MigrationInterface {
  name = 'AuditEvents1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_events (
        id             bigserial   PRIMARY KEY,
        at             timestamptz NOT NULL DEFAULT clock_timestamp(),
        principal      text        NOT NULL,
        client_address text,
        user_agent     text,
        request_id     text,
        operation      text        NOT NULL,
        resource       text        NOT NULL,
        outcome        text        NOT NULL,
        before         jsonb,
        after          jsonb,
        CONSTRAINT audit_events_outcome_valid CHECK (outcome IN ('SUCCEEDED', 'DENIED'))
      )`);
    // Newest first, overall or for one resource or principal.
    await db.query(`CREATE INDEX audit_events_at_idx ON audit_events (at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX audit_events_resource_idx ON audit_events (resource, at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX audit_events_principal_idx ON audit_events (principal, at DESC, id DESC)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE audit_events`);
  }
}
