import { Counter } from 'prom-client';
import type { MetricsService } from '../metrics/metrics.service';
import type { WatcherSlots } from './watcher-slots';

/** How events left the feed: on a Server-Sent Events stream, or in a page (a long poll's too). */
export type Delivery = 'stream' | 'page';

/** The places of this instance's watchers of the feed, read at each scrape. */
export interface FeedWatcherSlots {
  streams: WatcherSlots;
  longPolls: WatcherSlots;
}

/**
 * The change feed's metrics (docs/alerting.md): the places its watchers take against their
 * limits (EVENTS_MAX_STREAMS, EVENTS_MAX_LONG_POLLS), read when scraped, and the events it
 * delivered, counted as they go.
 */
export class FeedMetrics {
  private readonly delivered: Counter<'via'>;

  constructor(metrics: MetricsService, slots: FeedWatcherSlots) {
    this.delivered = new Counter({
      name: 'tributary_events_delivered_total',
      help: 'Change events sent to watchers of the feed, by how: on a stream, or in a page',
      labelNames: ['via'] as const,
      registers: [metrics.registry],
    });
    metrics.stateGauge(
      'tributary_events_open_streams',
      'Server-Sent Event streams of the change feed holding a place on this instance',
      () => slots.streams.taken(),
    );
    metrics.stateGauge(
      'tributary_events_max_streams',
      'Most streams of the change feed this instance holds (EVENTS_MAX_STREAMS)',
      () => slots.streams.max,
    );
    metrics.stateGauge(
      'tributary_events_long_polls',
      'Long polls of the change feed holding a place on this instance',
      () => slots.longPolls.taken(),
    );
    metrics.stateGauge(
      'tributary_events_max_long_polls',
      'Most long polls of the change feed this instance lets wait (EVENTS_MAX_LONG_POLLS)',
      () => slots.longPolls.max,
    );
  }

  /** `count` events went to a watcher. */
  deliver(via: Delivery, count: number): void {
    if (count > 0) this.delivered.inc({ via }, count);
  }
}
