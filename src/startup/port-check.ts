import { createServer } from 'node:net';
import { StartupError } from './startup-error';

/** A failure to listen, as the person starting the service can act on it; else the error itself. */
export function listenFailure(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `port ${port} on ${host} is already in use: stop the process using it, or set PORT to a free port`,
    );
  }
  if (code === 'EACCES') {
    return new StartupError(
      `this user may not listen on port ${port} (ports below 1024 need privileges): set PORT to 1024 or above`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new StartupError(
      `HOST ${host} is not an address of this machine (${code}): set HOST, e.g. to 0.0.0.0 or 127.0.0.1`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Fails at once when the port is taken, before the database is started or waited for; the
 * real listen, later, reports a port taken in between the same way.
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(listenFailure(error, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
