import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Segment history (epochs and segments) and reader groups. A stream's history and a group's
 * internal `_RG` stream go with them by cascade, so nothing is ever left behind.
 */
export class EpochsAndReaderGroups1763900000000 implements MigrationInterface {
  name = 'EpochsAndReaderGroups1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE stream_epochs (
        scope_name  text    NOT NULL,
        stream_name text    NOT NULL,
        epoch       integer NOT NULL CHECK (epoch >= 0),
        created_at  bigint  NOT NULL CHECK (created_at >= 0),
        -- The numbers of the segments active in this epoch: a window starts from them.
        active_segments integer[] NOT NULL CHECK (cardinality(active_segments) >= 1),
        PRIMARY KEY (scope_name, stream_name, epoch),
        CONSTRAINT stream_epochs_time_unique UNIQUE (scope_name, stream_name, created_at),
        FOREIGN KEY (scope_name, stream_name) REFERENCES streams (scope_name, name) ON DELETE CASCADE
      )`);
    await db.query(`
      CREATE TABLE stream_segments (
        scope_name   text             NOT NULL,
        stream_name  text             NOT NULL,
        number       integer          NOT NULL CHECK (number >= 0),
        created_in   integer          NOT NULL,
        sealed_in    integer,
        start_time   bigint           NOT NULL,
        key_start    double precision NOT NULL,
        key_end      double precision NOT NULL,
        PRIMARY KEY (scope_name, stream_name, number),
        FOREIGN KEY (scope_name, stream_name, created_in)
          REFERENCES stream_epochs (scope_name, stream_name, epoch) ON DELETE CASCADE,
        CONSTRAINT stream_segments_range_valid CHECK (0 <= key_start AND key_start < key_end AND key_end <= 1),
        CONSTRAINT stream_segments_life_valid CHECK (sealed_in IS NULL OR sealed_in > created_in)
      )`);
    // A window's segments: those active at its first epoch (by number) and those created after.
    await db.query(
      `CREATE INDEX stream_segments_created_idx ON stream_segments (scope_name, stream_name, created_in)`,
    );
    // Outlives its stream: a stream created again continues the numbering of its predecessor.
    await db.query(`
      CREATE TABLE segment_numbering (
        scope_name  text    NOT NULL REFERENCES scopes (name) ON DELETE CASCADE,
        stream_name text    NOT NULL,
        next_number integer NOT NULL CHECK (next_number >= 0),
        PRIMARY KEY (scope_name, stream_name)
      )`);

    // Streams created before this migration get their epoch 0: `minSegments` equal segments.
    await db.query(`
      INSERT INTO stream_epochs (scope_name, stream_name, epoch, created_at, active_segments)
      SELECT scope_name, name, 0, (extract(epoch FROM created_at) * 1000)::bigint,
             ARRAY(SELECT generate_series(0, min_segments - 1))
        FROM streams`);
    await db.query(`
      INSERT INTO stream_segments (scope_name, stream_name, number, created_in, start_time, key_start, key_end)
      SELECT s.scope_name, s.name, i, 0, (extract(epoch FROM s.created_at) * 1000)::bigint,
             i::float8 / s.min_segments, (i + 1)::float8 / s.min_segments
        FROM streams s, generate_series(0, s.min_segments - 1) AS i`);
    await db.query(`
      INSERT INTO segment_numbering (scope_name, stream_name, next_number)
      SELECT scope_name, name, min_segments FROM streams`);

    await db.query(`
      CREATE TABLE reader_groups (
        scope_name text        NOT NULL REFERENCES scopes (name) ON DELETE RESTRICT,
        name       text        NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope_name, name),
        CONSTRAINT reader_groups_name_valid CHECK (name ~ '^[A-Za-z0-9.-]{1,250}$')
      )`);
    await db.query(`
      CREATE TABLE reader_group_streams (
        scope_name   text    NOT NULL,
        reader_group text    NOT NULL,
        position     integer NOT NULL,
        stream_scope text    NOT NULL,
        stream_name  text    NOT NULL,
        PRIMARY KEY (scope_name, reader_group, stream_scope, stream_name),
        CONSTRAINT reader_group_streams_position_unique UNIQUE (scope_name, reader_group, position),
        FOREIGN KEY (scope_name, reader_group) REFERENCES reader_groups (scope_name, name) ON DELETE CASCADE,
        FOREIGN KEY (stream_scope, stream_name) REFERENCES streams (scope_name, name) ON DELETE CASCADE
      )`);
    await db.query(
      `CREATE INDEX reader_group_streams_stream_idx ON reader_group_streams (stream_scope, stream_name)`,
    );
    await db.query(`
      CREATE TABLE reader_group_readers (
        scope_name   text        NOT NULL,
        reader_group text        NOT NULL,
        reader_id    text        NOT NULL,
        online_since timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope_name, reader_group, reader_id),
        FOREIGN KEY (scope_name, reader_group) REFERENCES reader_groups (scope_name, name) ON DELETE CASCADE,
        CONSTRAINT reader_group_readers_id_valid CHECK (reader_id ~ '^[A-Za-z0-9.-]{1,250}$')
      )`);

    // A group's state lives in its `_RG<group>` stream, which also has a `_MARK` companion.
    await db.query(`ALTER TABLE streams ADD COLUMN owner_reader_group text`);
    await db.query(`
      ALTER TABLE streams
        ADD CONSTRAINT streams_reader_group_fk FOREIGN KEY (scope_name, owner_reader_group)
          REFERENCES reader_groups (scope_name, name) ON DELETE CASCADE,
        ADD CONSTRAINT streams_reader_group_named CHECK (
          (name LIKE '\\_RG%') = (owner_reader_group IS NOT NULL)
          AND (owner_reader_group IS NULL OR name = '_RG' || owner_reader_group)),
        DROP CONSTRAINT streams_name_valid,
        ADD CONSTRAINT streams_name_valid CHECK (name ~ '^(_MARK)?(_RG)?[A-Za-z0-9.-]{1,250}$')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM streams WHERE owner_reader_group IS NOT NULL`);
    await db.query(`
      ALTER TABLE streams
        DROP CONSTRAINT streams_name_valid,
        ADD CONSTRAINT streams_name_valid CHECK (name ~ '^(_MARK|_RG)?[A-Za-z0-9.-]{1,250}$'),
        DROP CONSTRAINT streams_reader_group_named,
        DROP CONSTRAINT streams_reader_group_fk,
        DROP COLUMN owner_reader_group`);
    await db.query(`DROP TABLE reader_group_readers`);
    await db.query(`DROP TABLE reader_group_streams`);
    await db.query(`DROP TABLE reader_groups`);
    await db.query(`DROP TABLE segment_numbering`);
    await db.query(`DROP TABLE stream_segments`);
    await db.query(`DROP TABLE stream_epochs`);
  }
}
