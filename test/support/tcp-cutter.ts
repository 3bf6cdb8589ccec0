import { createConnection, createServer, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP forwarder in front of a server that a test can cut: every connection through it is
 * destroyed at once, as a lost network does to a client's open requests, while new ones pass.
 */
export interface TcpCutter {
  /** `http://127.0.0.1:<port>` of the forwarder. */
  baseUrl: string;
  cut(): void;
  close(): Promise<void>;
}

export async function tcpCutter(target: URL): Promise<TcpCutter> {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  };
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((closed) => {
        for (const socket of open) socket.destroy();
        server.close(() => closed());
      }),
  };
}
