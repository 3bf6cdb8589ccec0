import { IncomingMessage, request, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import type { TestApp } from './test-app';

/** Starts a request and hands back its answer paused: nothing is read until the test says so. */
export function openUnread(port: number, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path });
    req.on('response', (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Sends a GET on a connection that reads nothing at all, not even the status line: the
 * kernel's buffers stay at their first size (they grow only as a reader drains them), so a
 * few megabytes of answer fill them and the service must wait.
 */
export async function requestUnread(port: number, path: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((connected, failed) => {
    socket.once('connect', connected);
    socket.once('error', failed);
  });
  socket.pause();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  return socket;
}

/**
 * What the connection of {@link requestUnread} carries, read to its end; `whole` when the
 * chunked answer ended with its last chunk, not cut off.
 */
export async function readRaw(socket: Socket): Promise<{ text: string; whole: boolean }> {
  socket.setEncoding('latin1');
  let text = '';
  socket.on('data', (chunk: string) => (text += chunk));
  socket.resume();
  await new Promise((closed) => socket.once('close', closed));
  return { text, whole: text.endsWith('\r\n0\r\n\r\n') };
}

/** The answer's text, read to its end; `complete` is false when it was cut off. */
export async function readToEnd(
  res: IncomingMessage,
): Promise<{ text: string; complete: boolean }> {
  res.setEncoding('utf8');
  let text = '';
  try {
    for await (const chunk of res) text += chunk as string;
  } catch {
    return { text, complete: false };
  }
  return { text, complete: res.complete };
}

/** Runs one statement: the app's `sql`, or a statement of a transaction of the test's own. */
type Run = (query: string, params: unknown[]) => Promise<unknown>;

/**
 * User streams `bulk-000001` on, as rows only: all a list reads; each with `tags` tags of 120
 * characters (some 15 kB of JSON per stream at 128), to make a long answer of few rows.
 */
export const insertStreams = (run: Run, scope: string, count: number, tags = 0) =>
  run(
    `INSERT INTO streams (scope_name, name, state, scaling_type, min_segments, tags)
     SELECT $1, 'bulk-' || lpad(i::text, 6, '0'), 'ACTIVE', 'FIXED_NUM_SEGMENTS', 1,
            ARRAY(SELECT lpad(j::text, 120, 't') FROM generate_series(1, $3::int) j)
       FROM generate_series(1, $2::int) i`,
    [scope, count, tags],
  );

/**
 * Transactions of others on the app's database that have waited for their client for a while:
 * open snapshots (not the moment between a statement and the next of a short transaction).
 */
export const openSnapshots = async (t: TestApp): Promise<number> =>
  (
    await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND state LIKE 'idle in transaction%'
          AND state_change < clock_timestamp() - interval '100 milliseconds'`,
    )
  )[0].n;

/** Where the app listens, once it does (on a free port of 127.0.0.1). */
export async function listeningPort(t: TestApp): Promise<number> {
  const server: Server = t.app.getHttpServer();
  if (!server.listening) await new Promise<void>((up) => server.listen(0, '127.0.0.1', up));
  return (server.address() as AddressInfo).port;
}
