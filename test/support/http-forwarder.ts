import { createServer, IncomingHttpHeaders, request, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An answer as the client saw it. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Sends one request from a loopback address of the caller's choice (`127.0.0.2`, ...): on
 * Linux all of 127.0.0.0/8 is this machine, so each address is a distinct client to a server.
 */
export function sendFrom(
  localAddress: string,
  port: number,
  {
    method = 'GET',
    path,
    headers = {},
    body,
  }: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: object;
  },
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method,
        path,
        agent: false,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A load balancer as the tests need one: a plain `node:http` proxy that forwards each request
 * to the service from 127.0.0.1, appending the address of whoever connected to it to
 * `X-Forwarded-For` and saying `X-Forwarded-Proto: https` and the `Host` it was asked for, as
 * a balancer that ends TLS does.
 */
export class HttpForwarder {
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<HttpForwarder> {
    const server = createServer((incoming, outgoing) => {
      const peer = incoming.socket.remoteAddress!;
      const before = incoming.headers['x-forwarded-for'];
      const forwarded = request(
        {
          host: '127.0.0.1',
          port: targetPort,
          localAddress: '127.0.0.1',
          method: incoming.method,
          path: incoming.url,
          agent: false,
          headers: {
            ...incoming.headers,
            'x-forwarded-for': before ? `${String(before)}, ${peer}` : peer,
            'x-forwarded-proto': 'https',
            'x-forwarded-host': incoming.headers.host ?? '',
          },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    return new HttpForwarder(server, (server.address() as AddressInfo).port);
  }

  close(): Promise<void> {
    return new Promise((closed) => this.server.close(() => closed()));
  }
}
