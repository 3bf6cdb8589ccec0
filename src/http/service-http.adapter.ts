import { NestApplicationOptions } from '@nestjs/common';
import type { Response } from 'express';
import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer, ServerOptions } from 'node:http';
import { createServer as createTlsServer } from 'node:https';

export interface ServerTimeouts {
  /** Whole request, headers and body, must arrive within this (408 otherwise). */
  requestTimeoutMs: number;
  /** The headers must arrive within this. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

/** A certificate chain and its private key, in PEM: the server then speaks HTTPS only. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/**
 * Express on a Node server (HTTPS with {@link TlsFiles}) created with its timeouts, so a slow
 * or never-finishing client cannot hold a connection forever. Node checks them every
 * `connectionsCheckingInterval`, 30 s by default: far coarser than the timeouts themselves.
 *
 * Every answer is JSON, a bare string or boolean too (the contract's health routes answer
 * `"UP"` and `true`), unless the route set another `Content-Type` (the metrics' text).
 */
export class ServiceHttpAdapter extends ExpressAdapter {
  constructor(
    private readonly timeouts: ServerTimeouts,
    private readonly tls?: TlsFiles,
  ) {
    super();
  }

  override initHttpServer(_options: NestApplicationOptions): void {
    const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs } = this.timeouts;
    const headersTimeout = Math.min(headersTimeoutMs, requestTimeoutMs);
    const options: ServerOptions = {
      requestTimeout: requestTimeoutMs,
      headersTimeout,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    };
    this.httpServer = this.tls
      ? createTlsServer({ ...options, ...this.tls, minVersion: 'TLSv1.2' }, this.getInstance())
      : createServer(options, this.getInstance());
  }

  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    const res = response as Response;
    if ((typeof body === 'string' || typeof body === 'boolean') && !res.getHeader('Content-Type')) {
      if (statusCode !== undefined) res.status(statusCode);
      return res.json(body);
    }
    return super.reply(response, body, statusCode);
  }
}
