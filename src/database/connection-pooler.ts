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
 * two clients ask which process serves them, the first twice around the second's question. A
 * pooler that refuses a session setting at connection, as PgBouncer does, says so first.
 */
export async function leadsThroughPooler(url: string, connectTimeoutMs: number): Promise<boolean> {
  if (await refusesSessionSettings(url, connectTimeoutMs)) return true;
  // Other clients of the same pooler (another instance starting at once) can hand the first
  // client its process back between its questions: straight to PostgreSQL every round says so.
  for (let round = 0; round < PROBE_ROUNDS; round++) {
    if (await processesMove(url, connectTimeoutMs)) return true;
  }
  return false;
}

const PROBE_ROUNDS = 3;

/**
 * Whether the server refuses a session setting sent at connection (`statement_timeout`), as
 * PgBouncer does unless told to ignore it: PostgreSQL itself takes it.
 */
async function refusesSessionSettings(url: string, connectTimeoutMs: number): Promise<boolean> {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: 0,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return false;
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if (code === '08P01' && message?.includes('unsupported startup parameter')) return true;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** One round of the two clients' questions (see {@link leadsThroughPooler}). */
async function processesMove(url: string, connectTimeoutMs: number): Promise<boolean> {
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
