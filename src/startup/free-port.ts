import { createServer } from 'node:net';

/** A TCP port on the loopback interface that the system says is free right now. */
function anyFreePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? done(address.port) : fail(new Error('no port')),
      );
    });
  });
}

/** Far more draws than it takes the system to hand out a port that is not one of a few. */
const DRAWS = 50;

/**
 * A free loopback port that is none of `reserved`: ports this process has been told to bind
 * but has not bound yet (the service's own PORT, say), which the system would otherwise
 * happily hand out, as they are still free.
 */
export async function freePort(
  reserved: readonly number[] = [],
  draw: () => Promise<number> = anyFreePort,
): Promise<number> {
  for (let attempt = 0; attempt < DRAWS; attempt++) {
    const port = await draw();
    if (!reserved.includes(port)) return port;
  }
  throw new Error(`no free port other than ${reserved.join(', ')} after ${DRAWS} draws`);
}
