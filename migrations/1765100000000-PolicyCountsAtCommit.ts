import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A scope's count limits held at commit instead of by a lock taken at a change's start
 * (docs/ARCHITECTURE.md, "Counts a policy limits"). Until now the counting triggers moved the
 * policy's row as soon as a change wrote, and a change read the row locked, so every create and
 * scale of a policed scope held that row through the rest of its statements, and the scope's
 * changes ran one at a time.
 *
 * Now a trigger notes what its statement moves in `scope_policy_count_changes` (a scope with a
 * policy only), and a constraint trigger deferred to the commit settles the transaction's notes:
 * it moves each scope's counts, in scope order, and fails the commit when a count the
 * transaction raised ends above its limit (SQLSTATE TB422, the limits and the counts in its
 * detail). A count's row is held from there to the end of the commit, inside the server.
 *
 * The counts move to a table of their own, `scope_policy_counts`: a PUT of a policy holds the
 * policy's row from its write to its commit, and takes the change feed's counter last, as every
 * change does; a commit that holds that counter and settles counts must not wait for it.
 *
 * The notes never outlive their transaction (the settling deletes them, a rollback discards
 * them), so their table is unlogged: after a crash it is empty, as it must be.
 */
export class PolicyCountsAtCommit1765100000000 implements MigrationInterface {
  name = 'PolicyCountsAtCommit1765100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE scope_policy_counts (
        scope_name text CONSTRAINT scope_policy_counts_pkey PRIMARY KEY
          CONSTRAINT scope_policy_counts_scope_name_fkey
          REFERENCES scope_policies (scope_name) ON DELETE CASCADE,
        user_streams integer NOT NULL DEFAULT 0,
        active_segments integer NOT NULL DEFAULT 0,
        CONSTRAINT scope_policy_counts_not_negative
          CHECK (user_streams >= 0 AND active_segments >= 0)
      )`);
    // No counting trigger writes while the counts move (they update scope_policies until below).
    await db.query(`LOCK TABLE scope_policies IN EXCLUSIVE MODE`);
    await db.query(`
      INSERT INTO scope_policy_counts (scope_name, user_streams, active_segments)
      SELECT scope_name, user_streams, active_segments FROM scope_policies`);
    await db.query(`
      ALTER TABLE scope_policies
        DROP CONSTRAINT scope_policies_counts_not_negative,
        DROP COLUMN user_streams,
        DROP COLUMN active_segments`);
    // One row per transaction and scope, found by the transaction's id: the table holds as
    // many dead rows as commits since its last vacuum, which a scan would read.
    await db.query(`
      CREATE UNLOGGED TABLE scope_policy_count_changes (
        xact bigint NOT NULL,
        scope_name text NOT NULL,
        streams integer NOT NULL,
        segments integer NOT NULL,
        CONSTRAINT scope_policy_count_changes_pkey PRIMARY KEY (xact, scope_name)
      )`);
    await db.query(MOVE_NOTES);
    await db.query(`
      CREATE FUNCTION scope_policy_counts_settle() RETURNS trigger
        LANGUAGE plpgsql AS $$
      DECLARE
        moved record;
        counts record;
        limits jsonb;
        max_streams bigint;
        max_segments bigint;
      BEGIN
        -- The first note to fire settles all of its transaction's; the rest find none left.
        FOR moved IN
          WITH mine AS (
            DELETE FROM scope_policy_count_changes
             WHERE xact = pg_current_xact_id()::text::bigint
            RETURNING scope_name, streams, segments)
          SELECT * FROM mine ORDER BY scope_name
        LOOP
          UPDATE scope_policy_counts c
             SET user_streams = c.user_streams + moved.streams,
                 active_segments = c.active_segments + moved.segments
           WHERE c.scope_name = moved.scope_name
          RETURNING c.user_streams, c.active_segments INTO counts;
          CONTINUE WHEN NOT FOUND;
          -- Read after the row is held: the policy as last committed.
          SELECT p.policy INTO limits FROM scope_policies p WHERE p.scope_name = moved.scope_name;
          max_streams := (limits->>'maxStreams')::bigint;
          max_segments := (limits->>'maxActiveSegments')::bigint;
          IF (moved.streams > 0 AND counts.user_streams > max_streams)
             OR (moved.segments > 0 AND counts.active_segments > max_segments) THEN
            RAISE EXCEPTION 'a count limit of the policy of scope % would be passed',
                moved.scope_name
              USING ERRCODE = 'TB422', DETAIL = json_build_object(
                'scope', moved.scope_name,
                'maxStreams', max_streams,
                'maxActiveSegments', max_segments,
                'streams', json_build_object('before', counts.user_streams - moved.streams,
                                             'after', counts.user_streams),
                'activeSegments', json_build_object(
                  'before', counts.active_segments - moved.segments,
                  'after', counts.active_segments))::text;
          END IF;
        END LOOP;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE CONSTRAINT TRIGGER scope_policy_counts_settle
        AFTER INSERT ON scope_policy_count_changes
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION scope_policy_counts_settle()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER scope_policy_counts_settle ON scope_policy_count_changes`);
    await db.query(`DROP FUNCTION scope_policy_counts_settle()`);
    await db.query(`LOCK TABLE scope_policies, scope_policy_counts IN EXCLUSIVE MODE`);
    await db.query(MOVE_IN_PLACE);
    await db.query(`DROP TABLE scope_policy_count_changes`);
    await db.query(`
      ALTER TABLE scope_policies
        ADD COLUMN user_streams integer NOT NULL DEFAULT 0,
        ADD COLUMN active_segments integer NOT NULL DEFAULT 0,
        ADD CONSTRAINT scope_policies_counts_not_negative
          CHECK (user_streams >= 0 AND active_segments >= 0)`);
    await db.query(`
      UPDATE scope_policies p SET user_streams = c.user_streams,
                                  active_segments = c.active_segments
        FROM scope_policy_counts c WHERE c.scope_name = p.scope_name`);
    await db.query(`DROP TABLE scope_policy_counts`);
  }
}

/**
 * What the counting triggers call (migration PolicyCounts): each scope's advisory lock taken
 * shared, in scope order, then `write` of what moved.
 */
const moveFunction = (write: string) => `
  CREATE OR REPLACE FUNCTION scope_policy_counts_move(scopes text[], streams bigint[], segments bigint[])
    RETURNS void LANGUAGE plpgsql AS $$
  DECLARE
    scope text;
  BEGIN
    FOR scope IN SELECT DISTINCT s FROM unnest(scopes) AS s ORDER BY s LOOP
      PERFORM pg_advisory_xact_lock_shared(7404, hashtext(scope));
    END LOOP;
    ${write};
  END $$`;

/**
 * Now: a note of what moved, for the commit to settle, added to the transaction's note of the
 * scope if it has one (an update, which does not fire the settling trigger again).
 */
const MOVE_NOTES = moveFunction(`
    INSERT INTO scope_policy_count_changes AS n (xact, scope_name, streams, segments)
    SELECT pg_current_xact_id()::text::bigint, d.scope_name, sum(d.streams), sum(d.segments)
      FROM unnest(scopes, streams, segments) AS d (scope_name, streams, segments)
     WHERE EXISTS (SELECT FROM scope_policy_counts c WHERE c.scope_name = d.scope_name)
     GROUP BY d.scope_name
    ON CONFLICT (xact, scope_name) DO UPDATE
       SET streams = n.streams + excluded.streams, segments = n.segments + excluded.segments`);

/** As migration PolicyCounts wrote it: the policy's row moved at once. */
const MOVE_IN_PLACE = moveFunction(`
    UPDATE scope_policies p
       SET user_streams = p.user_streams + d.streams,
           active_segments = p.active_segments + d.segments
      FROM unnest(scopes, streams, segments) AS d (scope_name, streams, segments)
     WHERE p.scope_name = d.scope_name`);
