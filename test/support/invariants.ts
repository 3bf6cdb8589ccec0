type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

/** What must hold of the data whatever happened before: each query lists what breaks it. */
const INVARIANTS: Record<string, string> = {
  'a stream without its _MARK companion': `
    SELECT s.scope_name, s.name FROM streams s
     WHERE s.owner_stream IS NULL
       AND NOT EXISTS (SELECT 1 FROM streams m
                        WHERE m.scope_name = s.scope_name AND m.owner_stream = s.name)`,
  'a stream without epoch 0': `
    SELECT s.scope_name, s.name FROM streams s
     WHERE NOT EXISTS (SELECT 1 FROM stream_epochs e
                        WHERE e.scope_name = s.scope_name AND e.stream_name = s.name AND e.epoch = 0)`,
  'a reader group without its _RG stream': `
    SELECT g.scope_name, g.name FROM reader_groups g
     WHERE NOT EXISTS (SELECT 1 FROM streams s
                        WHERE s.scope_name = g.scope_name AND s.owner_reader_group = g.name)`,
  'epochs with gaps in their numbers': `
    SELECT scope_name, stream_name FROM stream_epochs
     GROUP BY scope_name, stream_name HAVING count(*) <> max(epoch) + 1`,
  'an epoch not later than the one before': `
    SELECT scope_name, stream_name, epoch FROM (
      SELECT *, lag(created_at) OVER (PARTITION BY scope_name, stream_name ORDER BY epoch) AS previous
        FROM stream_epochs) e
     WHERE created_at <= previous`,
  'a segment numbered beyond the numbering': `
    SELECT g.scope_name, g.stream_name, g.number FROM stream_segments g
      JOIN segment_numbering n USING (scope_name, stream_name)
     WHERE g.number >= n.next_number`,
  // The segments alive in each epoch, by key: the first starts at 0, each starts exactly where
  // the one before ends, and the last ends at 1. No gap, no overlap, no empty epoch.
  'an epoch whose segments do not tile [0, 1)': `
    SELECT DISTINCT scope_name, stream_name, epoch FROM (
      SELECT e.scope_name, e.stream_name, e.epoch, g.key_start, g.key_end,
             lag(g.key_end) OVER w AS previous_end, row_number() OVER w AS position,
             count(g.number) OVER (PARTITION BY e.scope_name, e.stream_name, e.epoch) AS total
        FROM stream_epochs e
        LEFT JOIN stream_segments g
          ON g.scope_name = e.scope_name AND g.stream_name = e.stream_name
         AND int4range(g.created_in, g.sealed_in) @> e.epoch
      WINDOW w AS (PARTITION BY e.scope_name, e.stream_name, e.epoch ORDER BY g.key_start)) t
     WHERE total = 0 OR (position = 1 AND key_start <> 0)
        OR (position > 1 AND key_start <> previous_end) OR (position = total AND key_end <> 1)`,
  // What a policy's counts keep for its limits (migrations PolicyCounts, PolicyCountsAtCommit)
  // is what is there, for every policy; and every commit settled the notes of what it moved.
  "a policy whose counts are not its scope's": `
    SELECT q.scope_name, p.user_streams, p.active_segments, c.streams, c.segments
      FROM scope_policies q
      LEFT JOIN scope_policy_counts p USING (scope_name)
      CROSS JOIN LATERAL (
        SELECT (SELECT count(*)::int FROM streams s
                 WHERE s.scope_name = q.scope_name AND s.name NOT LIKE '\\_%') AS streams,
               (SELECT count(*)::int FROM stream_segments g
                  JOIN streams s ON s.scope_name = g.scope_name AND s.name = g.stream_name
                 WHERE g.scope_name = q.scope_name AND g.sealed_in IS NULL
                   AND s.state = 'ACTIVE' AND s.name NOT LIKE '\\_%') AS segments) c
     WHERE (p.user_streams, p.active_segments) IS DISTINCT FROM (c.streams, c.segments)`,
  'notes of moved counts that no commit settled': `
    SELECT scope_name, streams, segments FROM scope_policy_count_changes`,
};

/** Every broken invariant with up to three offending rows; empty when the data is sound. */
export async function brokenInvariants(query: Query): Promise<string[]> {
  const broken: string[] = [];
  for (const [name, sql] of Object.entries(INVARIANTS)) {
    const rows = await query(`${sql} LIMIT 3`);
    if (rows.length > 0) broken.push(`${name}: ${JSON.stringify(rows)}`);
  }
  return broken;
}
