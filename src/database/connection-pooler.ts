import { Client } from 'pg';

const connect = async (url: string, connectTimeoutMs: number): Promise<Client> => {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => undefined);
  await client.connect();
  return client;
};

const serverProcess = async (client: Client): Promise<number> =>
  (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

/**
 * Whether `url` leads to PostgreSQL through a transaction pooler (PgBouncer, and the like).
 * Straight to PostgreSQL, or through a plain TCP proxy, a session is one server process for its
 * whole life, and two sessions open at once are two processes. A transaction pooler lends its
 * server sessions a transaction at a time: the process that served one client serves the next
 * (the one it just gave back), or a client's statements move from one process to another. So
 * two clients ask which process serves them, the first twice around the second's question.
 */
export async function leadsThroughPooler(url: string, connectTimeoutMs: number): Promise<boolean> {
  const first = await connect(url, connectTimeoutMs);
  try {
    const second = await connect(url, connectTimeoutMs);
    try {
      const before = await serverProcess(first);
      const other = await serverProcess(second);
      const after = await serverProcess(first);
      return other === before || after !== before;
    } finally {
      await second.end().catch(() => undefined);
    }
  } finally {
    await first.end().catch(() => undefined);
  }
}
