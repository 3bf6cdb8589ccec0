import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';

/** How often, once the listener is closed, connections that went idle are closed. */
const IDLE_SWEEP_MS = 50;

/**
 * The first step of shutting down. Nest then closes the listener and waits for the requests
 * in flight, and only after that closes the pool and the embedded database.
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private drainingSince?: Date;

  constructor(
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /**
   * Turns not-ready, keeps serving SHUTDOWN_DELAY_MS, and bounds how long the drain may take.
   * Closing the listener only stops new connections: busy keep-alive connections would carry
   * new requests forever, so from now on every response closes its connection (a listener of
   * the server's, first of all, added only now: the request pipeline names it).
   */
  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.drainingSince = new Date();
    this.logger.log(`${signal ?? 'close'}: not ready any more; draining requests in flight`);
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    server?.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
    if (this.config.SHUTDOWN_DELAY_MS > 0) await sleep(this.config.SHUTDOWN_DELAY_MS);
    // Closing the listener (next) closes the connections idle then; one whose request was taken
    // before the signal is answered keep-alive, goes idle later, and would hold the exit for
    // HTTP_KEEP_ALIVE_TIMEOUT_MS: close such connections as soon as they go idle.
    setInterval(() => server?.closeIdleConnections(), IDLE_SWEEP_MS).unref();
    setTimeout(() => {
      this.logger.warn('requests still running at SHUTDOWN_TIMEOUT_MS: closing their connections');
      server?.closeAllConnections();
    }, this.config.SHUTDOWN_TIMEOUT_MS).unref();
  }
}
