import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which segments an epoch has is read from the segments themselves: a segment created in epoch c
 * and sealed by epoch s is alive in [c, s). Until now each epoch also listed its active segments,
 * so a scale of one segment on a stream of 1,000 rewrote a list of 1,000 numbers, and a history
 * held the list once per epoch. A scale now writes only the segments it seals and opens
 * (docs/extensions.md section 7).
 *
 * A GiST index over each segment's life answers "alive at epoch e" and "alive in epochs a to b"
 * with one index scan, whatever the length of the history; its stream columns need `btree_gist`,
 * a trusted extension shipped with PostgreSQL (the database's owner may create it). A B-tree
 * over the epoch that sealed a segment finds what a scale replaced (a segment's predecessors),
 * as the one over the epoch that created it finds what replaced it.
 *
 * No data is lost: before the lists are dropped, every one is checked against the segments'
 * lives, and the migration stops (rolled back) if any differs. `down` writes them back.
 */
export class SegmentLives1764500000000 implements MigrationInterface {
  name = 'SegmentLives1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await db.query(`
      CREATE INDEX stream_segments_life_idx ON stream_segments
        USING gist (scope_name, stream_name, int4range(created_in, sealed_in))`);
    await db.query(
      `CREATE INDEX stream_segments_sealed_idx ON stream_segments (scope_name, stream_name, sealed_in)`,
    );
    const differing = (await db.query(`
      SELECT e.scope_name, e.stream_name, e.epoch FROM stream_epochs e
       WHERE e.active_segments::int[] IS DISTINCT FROM ARRAY(
               SELECT g.number FROM stream_segments g
                WHERE g.scope_name = e.scope_name AND g.stream_name = e.stream_name
                  AND int4range(g.created_in, g.sealed_in) @> e.epoch
                ORDER BY g.number)
       ORDER BY 1, 2, 3 LIMIT 3`)) as unknown[];
    if (differing.length > 0) {
      throw new Error(
        `epochs whose list of active segments differs from their segments' lives: ` +
          JSON.stringify(differing),
      );
    }
    await db.query(`ALTER TABLE stream_epochs DROP COLUMN active_segments`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE stream_epochs ADD COLUMN active_segments integer[]`);
    await db.query(`
      UPDATE stream_epochs e SET active_segments = ARRAY(
        SELECT g.number FROM stream_segments g
         WHERE g.scope_name = e.scope_name AND g.stream_name = e.stream_name
           AND int4range(g.created_in, g.sealed_in) @> e.epoch
         ORDER BY g.number)`);
    await db.query(`
      ALTER TABLE stream_epochs ALTER COLUMN active_segments SET NOT NULL,
        ADD CONSTRAINT stream_epochs_active_segments_check CHECK (cardinality(active_segments) >= 1)`);
    await db.query(`DROP INDEX stream_segments_sealed_idx`);
    await db.query(`DROP INDEX stream_segments_life_idx`);
    // btree_gist stays: other objects of the database may have come to use it.
  }
}
