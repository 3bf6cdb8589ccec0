import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './tracing';

/** How long a shutdown waits for the last spans to reach the collector. */
export const TRACING_SHUTDOWN_TIMEOUT_MS = 3_000;

/**
 * Sends the last spans when the application stops (after the requests in flight finished, in
 * `GracefulShutdown`), bounded so that a collector that does not answer cannot hold it.
 */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing(TRACING_SHUTDOWN_TIMEOUT_MS);
  }
}
