import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a scope's count limits are held to (docs/extensions.md section 10), kept with its policy:
 * its user streams (sealed ones too) and the active segments of its active user streams. A change
 * a policy limits reads them with the policy's row it locks, instead of counting the scope under
 * that lock (docs/ARCHITECTURE.md, "Counts a policy limits").
 *
 * Triggers move them, so that every statement that writes streams or segments moves them, however
 * it was written: user streams inserted or deleted; segments inserted or sealed; a stream sealed
 * (its open segments stop counting) or deleted while active. Segments are deleted only with their
 * stream. The triggers move only rows that exist: a scope without a policy has none to move.
 *
 * A policy's row is counted when it is first inserted (`scope_policy_usage`), and a change in
 * flight that read no policy then must not be missed: each trigger holds its scopes' advisory
 * lock (class 7404) shared until its transaction ends, and the count takes it exclusively, so it
 * waits for the changes that wrote before it, and those writing after it wait for its row. The
 * count tries for the lock until it is free rather than queueing for it, so that no change's
 * shared request ever waits behind it.
 */
export class PolicyCounts1765000000000 implements MigrationInterface {
  name = 'PolicyCounts1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE scope_policies
        ADD COLUMN user_streams integer NOT NULL DEFAULT 0,
        ADD COLUMN active_segments integer NOT NULL DEFAULT 0,
        ADD CONSTRAINT scope_policies_counts_not_negative
          CHECK (user_streams >= 0 AND active_segments >= 0)`);
    await db.query(`
      CREATE FUNCTION scope_policy_counts_move(scopes text[], streams bigint[], segments bigint[])
        RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        scope text;
      BEGIN
        FOR scope IN SELECT DISTINCT s FROM unnest(scopes) AS s ORDER BY s LOOP
          PERFORM pg_advisory_xact_lock_shared(7404, hashtext(scope));
        END LOOP;
        UPDATE scope_policies p
           SET user_streams = p.user_streams + d.streams,
               active_segments = p.active_segments + d.segments
          FROM unnest(scopes, streams, segments) AS d (scope_name, streams, segments)
         WHERE p.scope_name = d.scope_name;
      END $$`);
    await db.query(`
      CREATE FUNCTION scope_policy_usage(scope text)
        RETURNS TABLE (user_streams integer, active_segments integer)
        LANGUAGE plpgsql AS $$
      BEGIN
        -- Tried, never queued for: a shared request behind a queued exclusive one would wait
        -- too, and a change holding a stream's row while it asks would close a cycle with one
        -- holding the lock and waiting for that row. The statement timeout bounds the tries.
        WHILE NOT pg_try_advisory_xact_lock(7404, hashtext(scope)) LOOP
          PERFORM pg_sleep(0.01);
        END LOOP;
        RETURN QUERY SELECT
          (SELECT count(*)::int FROM streams s
            WHERE s.scope_name = scope AND s.name NOT LIKE '\\_%'),
          (SELECT count(*)::int FROM stream_segments g
             JOIN streams s ON s.scope_name = g.scope_name AND s.name = g.stream_name
            WHERE g.scope_name = scope AND g.sealed_in IS NULL
              AND s.state = 'ACTIVE' AND s.name NOT LIKE '\\_%');
      END $$`);

    // User streams inserted or deleted, by statement: the same transition table name for both.
    await db.query(`
      CREATE FUNCTION scope_policy_counts_streams_changed() RETURNS trigger
        LANGUAGE plpgsql AS $$
      DECLARE
        sign bigint := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
      BEGIN
        PERFORM scope_policy_counts_move(array_agg(scope_name), array_agg(sign * n),
                  array_agg(0::bigint))
           FROM (SELECT scope_name, count(*) AS n FROM changed
                  WHERE name NOT LIKE '\\_%' GROUP BY scope_name) AS c
         HAVING count(*) > 0;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER scope_policy_counts_streams_inserted AFTER INSERT ON streams
        REFERENCING NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION scope_policy_counts_streams_changed()`);
    await db.query(`
      CREATE TRIGGER scope_policy_counts_streams_deleted AFTER DELETE ON streams
        REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION scope_policy_counts_streams_changed()`);

    // A stream sealed, or deleted while active, takes its open segments out of the count; rare,
    // so one row at a time, and only the rows the WHEN keeps call the function.
    await db.query(`
      CREATE FUNCTION scope_policy_counts_stream_state() RETURNS trigger
        LANGUAGE plpgsql AS $$
      DECLARE
        stream streams%ROWTYPE;
        sign bigint := -1;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          stream := OLD;
        ELSE
          stream := NEW;
          IF NEW.state = 'ACTIVE' THEN sign := 1; END IF;
        END IF;
        PERFORM scope_policy_counts_move(ARRAY[stream.scope_name], ARRAY[0::bigint],
                  ARRAY[sign * count(*)])
           FROM stream_segments g
          WHERE g.scope_name = stream.scope_name AND g.stream_name = stream.name
            AND g.sealed_in IS NULL
         HAVING count(*) > 0;
        -- Before a delete, the row it returns is the row deleted.
        RETURN stream;
      END $$`);
    await db.query(`
      CREATE TRIGGER scope_policy_counts_stream_state AFTER UPDATE OF state ON streams
        FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state AND NEW.name NOT LIKE '\\_%')
        EXECUTE FUNCTION scope_policy_counts_stream_state()`);
    await db.query(`
      CREATE TRIGGER scope_policy_counts_active_stream_deleted BEFORE DELETE ON streams
        FOR EACH ROW WHEN (OLD.state = 'ACTIVE' AND OLD.name NOT LIKE '\\_%')
        EXECUTE FUNCTION scope_policy_counts_stream_state()`);

    // Segments opened (inserted open) or sealed, by statement: each stream's change, counted
    // where the stream is an active user stream.
    await db.query(`
      CREATE FUNCTION scope_policy_counts_move_segments(scopes text[], names text[], opened bigint[])
        RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM scope_policy_counts_move(array_agg(scope_name), array_agg(0::bigint), array_agg(n))
           FROM (SELECT d.scope_name, sum(d.opened)::bigint AS n
                   FROM unnest(scopes, names, opened) AS d (scope_name, stream_name, opened)
                   JOIN streams s ON s.scope_name = d.scope_name AND s.name = d.stream_name
                  WHERE s.state = 'ACTIVE' AND d.stream_name NOT LIKE '\\_%'
                  GROUP BY d.scope_name) AS c
         HAVING count(*) > 0;
      END $$`);
    await db.query(`
      CREATE FUNCTION scope_policy_counts_segments_inserted() RETURNS trigger
        LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM scope_policy_counts_move_segments(array_agg(scope_name), array_agg(stream_name),
                  array_agg(n))
           FROM (SELECT scope_name, stream_name, count(*) AS n FROM inserted
                  WHERE sealed_in IS NULL GROUP BY scope_name, stream_name) AS i
         HAVING count(*) > 0;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER scope_policy_counts_segments_inserted AFTER INSERT ON stream_segments
        REFERENCING NEW TABLE AS inserted
        FOR EACH STATEMENT EXECUTE FUNCTION scope_policy_counts_segments_inserted()`);
    await db.query(`
      CREATE FUNCTION scope_policy_counts_segments_sealed() RETURNS trigger
        LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM scope_policy_counts_move_segments(array_agg(scope_name), array_agg(stream_name),
                  array_agg(n))
           FROM (SELECT a.scope_name, a.stream_name,
                        sum(CASE WHEN a.sealed_in IS NULL THEN 1 ELSE -1 END)::bigint AS n
                   FROM before_update b
                   JOIN after_update a USING (scope_name, stream_name, number)
                  WHERE (b.sealed_in IS NULL) <> (a.sealed_in IS NULL)
                  GROUP BY a.scope_name, a.stream_name) AS i
         HAVING count(*) > 0;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER scope_policy_counts_segments_sealed AFTER UPDATE ON stream_segments
        REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
        FOR EACH STATEMENT EXECUTE FUNCTION scope_policy_counts_segments_sealed()`);

    // The policies set before: counted once, while no stream or segment is written.
    await db.query(`LOCK TABLE streams, stream_segments IN SHARE MODE`);
    await db.query(`
      UPDATE scope_policies p SET (user_streams, active_segments) =
        (SELECT u.user_streams, u.active_segments FROM scope_policy_usage(p.scope_name) AS u)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER scope_policy_counts_segments_sealed ON stream_segments`);
    await db.query(`DROP TRIGGER scope_policy_counts_segments_inserted ON stream_segments`);
    await db.query(`DROP TRIGGER scope_policy_counts_active_stream_deleted ON streams`);
    await db.query(`DROP TRIGGER scope_policy_counts_stream_state ON streams`);
    await db.query(`DROP TRIGGER scope_policy_counts_streams_deleted ON streams`);
    await db.query(`DROP TRIGGER scope_policy_counts_streams_inserted ON streams`);
    for (const name of [
      'scope_policy_counts_segments_sealed()',
      'scope_policy_counts_segments_inserted()',
      'scope_policy_counts_stream_state()',
      'scope_policy_counts_move_segments(text[], text[], bigint[])',
      'scope_policy_counts_streams_changed()',
      'scope_policy_usage(text)',
      'scope_policy_counts_move(text[], bigint[], bigint[])',
    ]) {
      await db.query(`DROP FUNCTION ${name}`);
    }
    await db.query(`
      ALTER TABLE scope_policies
        DROP CONSTRAINT scope_policies_counts_not_negative,
        DROP COLUMN active_segments,
        DROP COLUMN user_streams`);
  }
}
