import { Client } from 'pg';

/**
 * Whether `url` leads to PostgreSQL through a connection pooler (PgBouncer, and the like). A
 * server names each session by its process id, sent to the client when the connection opens
 * (to cancel its queries with) and answered by `pg_backend_pid()`; a pooler hands its clients
 * keys of its own, since the server session behind a client changes. The two differ only then:
 * a plain TCP proxy passes the server's key through.
 */
export async function leadsThroughPooler(url: string, connectTimeoutMs: number): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return rows[0].pid !== (client as unknown as { processID: number | null }).processID;
  } finally {
    await client.end().catch(() => undefined);
  }
}
