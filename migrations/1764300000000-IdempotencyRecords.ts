import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The answers of POSTs sent with an `Idempotency-Key`, kept for their retries. A row is written
 * in the transaction of the change it answers, so both commit or neither does; `status` is null
 * only inside that transaction, never once committed.
 */
export class IdempotencyRecords1764300000000 implements MigrationInterface {
  name = 'IdempotencyRecords1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE idempotency_records (
        principal   text        NOT NULL,
        key         text        NOT NULL,
        method      text        NOT NULL,
        path        text        NOT NULL,
        body_digest text        NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        status      integer,
        body        text,
        headers     jsonb       NOT NULL DEFAULT '{}',
        -- Keys belong to their principal: the same key of two accounts is two entries.
        PRIMARY KEY (principal, key)
      )`);
    // The background purge takes the oldest expired rows first.
    await db.query(
      `CREATE INDEX idempotency_records_created_at_idx ON idempotency_records (created_at)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE idempotency_records`);
  }
}
