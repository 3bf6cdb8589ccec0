import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The window over which the longest event-loop delay is measured. */
const WINDOW_MS = 1000;
/** The sampling timer's own period, which the histogram counts in every delay. */
const RESOLUTION_MS = 10;
const delayMs = (nanoseconds: number): number => Math.max(0, nanoseconds / 1e6 - RESOLUTION_MS);

/**
 * Whether the event loop keeps turning: the longest delay of the last window against a limit.
 * A loop blocked for longer than the limit means this process no longer serves in time.
 */
@Injectable()
export class EventLoopIndicator implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private timer?: NodeJS.Timeout;
  private lastMaxMs = 0;
  private lastMeanMs = 0;

  constructor(private readonly indicators: HealthIndicatorService) {}

  /** Measures from the end of the boot: loading modules and migrating are not a stuck loop. */
  onApplicationBootstrap(): void {
    this.histogram.enable();
    this.timer = setInterval(() => this.closeWindow(), WINDOW_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  check(limitMs: number) {
    const session = this.indicators.check('eventLoop');
    const data = {
      maxDelayMs: this.lastMaxMs.toFixed(1),
      meanDelayMs: this.lastMeanMs.toFixed(1),
      limitMs: String(limitMs),
    };
    return this.lastMaxMs <= limitMs
      ? session.up(data)
      : session.down({ ...data, message: 'the event loop was blocked longer than the limit' });
  }

  private closeWindow(): void {
    const samples = this.histogram.count > 0;
    this.lastMaxMs = samples ? delayMs(this.histogram.max) : 0;
    this.lastMeanMs = samples ? delayMs(this.histogram.mean) : 0;
    this.histogram.reset();
  }
}
