import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore, to make a real outage:
 * while cut, open connections are dropped and new ones are refused.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly watches: Array<{ text: Buffer; count: number }> = [];
  private frozen = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<void> {
    this.server = createServer((client) => {
      if (this.frozen) {
        // A black hole: the connection is accepted and then nothing ever answers.
        this.sockets.add(client);
        client.on('close', () => this.sockets.delete(client));
        client.on('error', () => client.destroy());
        client.pause();
        return;
      }
      const upstream = createConnection(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      let carry = Buffer.alloc(0);
      client.on('data', (chunk: Buffer) => {
        const seen = Buffer.concat([carry, chunk]);
        for (const watch of this.watches) {
          for (
            let at = seen.indexOf(watch.text);
            at !== -1;
            at = seen.indexOf(watch.text, at + 1)
          ) {
            if (at + watch.text.length > carry.length) watch.count++;
          }
        }
        carry = seen.subarray(Math.max(0, seen.length - 256));
      });
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((done, fail) => {
      this.server!.once('error', fail);
      this.server!.listen(port, '127.0.0.1', done);
    });
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : port;
  }

  /** Counts, from now on, how often `text` (a statement's SQL) travels to the server. */
  watch(text: string): { readonly count: number } {
    const watch = { text: Buffer.from(text), count: 0 };
    this.watches.push(watch);
    return watch;
  }

  /** Drops every connection and stops accepting new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.sockets.forEach((socket) => socket.destroy());
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  }

  /**
   * Makes the database a black hole, as a lost network does: connections stay open and new
   * ones are accepted, but no byte goes through in either direction.
   */
  freeze(): void {
    this.frozen = true;
    this.sockets.forEach((socket) => socket.pause());
  }

  /** Accepts connections again, on the same port (nothing to do if it already does). */
  async restore(): Promise<void> {
    if (this.frozen) {
      this.frozen = false;
      this.sockets.forEach((socket) => socket.destroy());
    }
    if (!this.server) await this.start(this.port);
  }

  /** Rewrites a PostgreSQL URL to go through the proxy. */
  route(url: string): string {
    const routed = new URL(url);
    routed.hostname = '127.0.0.1';
    routed.port = String(this.port);
    return routed.toString();
  }
}
