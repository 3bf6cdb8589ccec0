import { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer } from 'node:http';

export interface ServerTimeouts {
  /** Whole request, headers and body, must arrive within this (408 otherwise). */
  requestTimeoutMs: number;
  /** The headers must arrive within this. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

/**
 * Express on a Node server created with its timeouts, so a slow or never-finishing client
 * cannot hold a connection forever. Node checks them every `connectionsCheckingInterval`,
 * 30 s by default: far coarser than the timeouts themselves.
 */
export class TimedExpressAdapter extends ExpressAdapter {
  constructor(private readonly timeouts: ServerTimeouts) {
    super();
  }

  override initHttpServer(_options: NestApplicationOptions): void {
    const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs } = this.timeouts;
    const headersTimeout = Math.min(headersTimeoutMs, requestTimeoutMs);
    this.httpServer = createServer(
      {
        requestTimeout: requestTimeoutMs,
        headersTimeout,
        keepAliveTimeout: keepAliveTimeoutMs,
        connectionsCheckingInterval: Math.min(1000, headersTimeout),
      },
      this.getInstance(),
    );
  }
}
