import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore, to make a real outage:
 * while cut, open connections are dropped and new ones are refused.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((done, fail) => {
      this.server!.once('error', fail);
      this.server!.listen(port, '127.0.0.1', done);
    });
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : port;
  }

  /** Drops every connection and stops accepting new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.sockets.forEach((socket) => socket.destroy());
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  }

  /** Accepts connections again, on the same port (nothing to do if it already does). */
  async restore(): Promise<void> {
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
