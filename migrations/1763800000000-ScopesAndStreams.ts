import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scopes and streams. Every rule a concurrent writer could break is a constraint here:
 * names, the scope a stream lives in, the companion a stream owns, policies and tags.
 */
export class ScopesAndStreams1763800000000 implements MigrationInterface {
  name = 'ScopesAndStreams1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE scopes (
        name       text        PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT scopes_name_valid CHECK (name ~ '^[A-Za-z0-9.-]{1,255}$')
      )`);
    await db.query(`
      CREATE FUNCTION tributary_tags_valid(tags text[]) RETURNS boolean
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT cardinality(tags) <= 128
           AND NOT EXISTS (SELECT 1 FROM unnest(tags) t WHERE t IS NULL OR char_length(t) NOT BETWEEN 1 AND 256)
           AND cardinality(tags) = (SELECT count(DISTINCT t) FROM unnest(tags) t)
      $$`);
    await db.query(`
      CREATE TABLE streams (
        scope_name                    text        NOT NULL REFERENCES scopes (name) ON DELETE RESTRICT,
        name                          text        NOT NULL,
        owner_stream                  text,
        state                         text        NOT NULL DEFAULT 'ACTIVE',
        scaling_type                  text        NOT NULL,
        min_segments                  integer     NOT NULL,
        target_rate                   integer,
        scale_factor                  integer,
        retention_type                text,
        retention_min                 bigint,
        retention_max                 bigint,
        tags                          text[]      NOT NULL DEFAULT '{}',
        rollover_size_bytes           bigint      NOT NULL DEFAULT 0,
        timestamp_aggregation_timeout bigint      NOT NULL DEFAULT 0,
        created_at                    timestamptz NOT NULL DEFAULT now(),
        updated_at                    timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope_name, name),
        CONSTRAINT streams_owner_fk FOREIGN KEY (scope_name, owner_stream)
          REFERENCES streams (scope_name, name) ON DELETE CASCADE,
        CONSTRAINT streams_name_valid CHECK (name ~ '^(_MARK|_RG)?[A-Za-z0-9.-]{1,250}$'),
        CONSTRAINT streams_companion_named CHECK (
          (name LIKE '\\_MARK%') = (owner_stream IS NOT NULL)
          AND (owner_stream IS NULL OR name = '_MARK' || owner_stream)),
        CONSTRAINT streams_state_valid CHECK (state IN ('ACTIVE', 'SEALED')),
        CONSTRAINT streams_scaling_valid CHECK (
          min_segments BETWEEN 1 AND 10000 AND (
            (scaling_type = 'FIXED_NUM_SEGMENTS' AND target_rate IS NULL AND scale_factor IS NULL)
            OR (scaling_type IN ('BY_RATE_IN_KBYTES_PER_SEC', 'BY_RATE_IN_EVENTS_PER_SEC')
                AND target_rate > 0 AND scale_factor > 0))),
        CONSTRAINT streams_retention_valid CHECK (
          (retention_type IS NULL AND retention_min IS NULL AND retention_max IS NULL)
          OR (retention_type IN ('LIMITED_DAYS', 'LIMITED_SIZE_MB') AND retention_min >= 0
              AND (retention_max IS NULL OR retention_max >= retention_min))),
        CONSTRAINT streams_tags_valid CHECK (tributary_tags_valid(tags)),
        CONSTRAINT streams_rollover_valid CHECK (rollover_size_bytes >= 0),
        CONSTRAINT streams_aggregation_timeout_valid CHECK (timestamp_aggregation_timeout >= 0)
      )`);
    // List by tag reads this index, never the whole scope.
    await db.query(`CREATE INDEX streams_tags_idx ON streams USING gin (tags)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE streams`);
    await db.query(`DROP FUNCTION tributary_tags_valid(text[])`);
    await db.query(`DROP TABLE scopes`);
  }
}
