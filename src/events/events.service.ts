import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InvalidRequestError } from '../common/domain-error';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import type { StoredEvent } from './change-event';
import { EventStream, StreamSource } from './event-stream';
import { EventsRepository } from './events.repository';
import {
  FeedPositionExpiredError,
  FeedStoppingError,
  TooManyLongPollsError,
  TooManyStreamsError,
} from './events.errors';
import { parsePosition, POSITION_RULE, positionProblem } from './feed-position';
import { FeedMetrics } from './feed-metrics';
import { FeedTail } from './feed-tail.service';
import type { FeedViewer } from './feed-viewer';
import { visibleTo } from './feed-viewer';
import { ReleaseSlot, SlotRefusal, WatcherSlots } from './watcher-slots';

const DEFAULT_EVENTS_LIMIT = 100;

/** A page of the feed: its events, and where to follow from. */
export interface FeedPage {
  events: StoredEvent[];
  position: bigint;
}

/** Who follows the feed, for its fair share: its holder ({@link holderOf}), and its going away. */
export interface FeedWatcher {
  holder: string;
  /** Aborted when the client goes away before its answer: a long poll stops waiting. */
  gone?: AbortSignal;
}

/** What a request asks of the feed. */
export interface FeedQuery {
  since?: string;
  scope?: string;
  limit?: number;
  wait?: number;
}

/**
 * The change feed as clients follow it (docs/extensions.md section 8): pages, long polls and
 * Server-Sent Event streams, all read through this instance's {@link FeedTail}.
 */
@Injectable()
export class EventsService implements OnModuleDestroy {
  private readonly streams = new Set<EventStream>();
  private readonly waiting = new Set<() => void>();
  /** Places for streams and for waiting long polls, in all and per client. */
  private readonly streamSlots: WatcherSlots;
  private readonly pollSlots: WatcherSlots;
  private stopping = false;
  /** What every stream reads from and is bound by. */
  private readonly source: StreamSource;
  /** One timer beats every stream, while there are streams. */
  private heartbeat?: NodeJS.Timeout;
  private readonly metrics: FeedMetrics;

  constructor(
    private readonly config: AppConfig,
    private readonly tail: FeedTail,
    private readonly events: EventsRepository,
    metrics: MetricsService,
  ) {
    this.source = {
      read: tail.read.bind(tail),
      held: tail.held.bind(tail),
      subscribe: tail.subscribe.bind(tail),
      retryMs: config.EVENTS_POLL_MS,
      slowClientMs: config.EVENTS_SLOW_CLIENT_MS,
      sent: (count) => this.metrics.deliver('stream', count),
    };
    const perClient = config.EVENTS_MAX_STREAMS_PER_CLIENT;
    this.streamSlots = new WatcherSlots(config.EVENTS_MAX_STREAMS, perClient);
    this.pollSlots = new WatcherSlots(config.EVENTS_MAX_LONG_POLLS, perClient);
    this.metrics = new FeedMetrics(metrics, {
      streams: this.streamSlots,
      longPolls: this.pollSlots,
    });
  }

  /** How many streams this instance sends now. */
  get openStreams(): number {
    return this.streams.size;
  }

  /** How many long polls wait on this instance now, having found nothing to answer yet. */
  get waitingLongPolls(): number {
    return this.waiting.size;
  }

  /** Ends every stream and answers every long poll: the service stops. */
  onModuleDestroy(): void {
    this.stopping = true;
    clearInterval(this.heartbeat);
    for (const stream of this.streams) stream.finish();
    for (const wake of this.waiting) wake();
  }

  /**
   * Without `since`, the newest position; with it, the events after it that the viewer may see
   * (at most `limit`), waiting up to `wait` seconds for the first one. A long poll (`wait` above
   * 0) holds one of its client's places from before its first read until it answers, or its
   * client goes away.
   */
  async page(
    query: FeedQuery,
    viewer: FeedViewer | undefined,
    watcher: FeedWatcher,
  ): Promise<FeedPage> {
    if (query.since === undefined) {
      return { events: [], position: (await this.events.bounds()).newest };
    }
    const page = await this.pageFor(query.since, query, viewer, watcher);
    this.metrics.deliver('page', page.events.length);
    return page;
  }

  /** A page after `since`; a long poll holds one of its client's places while it waits. */
  private async pageFor(
    since: string,
    query: FeedQuery,
    viewer: FeedViewer | undefined,
    watcher: FeedWatcher,
  ): Promise<FeedPage> {
    if (!query.wait) return this.pageAfter(since, query, viewer);
    const release = this.place(this.pollSlots, watcher.holder, TooManyLongPollsError);
    // A client gone gives its place back at once, even while a read for it is in flight.
    watcher.gone?.addEventListener('abort', release, { once: true });
    try {
      return await this.pageAfter(since, query, viewer, watcher.gone);
    } finally {
      watcher.gone?.removeEventListener('abort', release);
      release();
    }
  }

  private async pageAfter(
    sinceText: string,
    query: FeedQuery,
    viewer: FeedViewer | undefined,
    gone?: AbortSignal,
  ): Promise<FeedPage> {
    const since = await this.checkedPosition(sinceText, 'since');
    const limit = query.limit ?? DEFAULT_EVENTS_LIMIT;
    const deadline = Date.now() + (query.wait ?? 0) * 1000;
    let scanned = since;
    for (;;) {
      const shown: StoredEvent[] = [];
      let full: boolean;
      do {
        const take = limit - shown.length;
        const read = await this.tail.read(scanned, query.scope, take);
        shown.push(...(await visibleTo(viewer, read.events)));
        full = read.events.length === take;
        scanned = read.through;
      } while (shown.length < limit && full);
      if (shown.length > 0 || Date.now() >= deadline || this.stopping || gone?.aborted) {
        return { events: shown, position: shown.length > 0 ? shown[shown.length - 1].id : since };
      }
      await this.news(scanned, deadline, gone);
      // Nothing more is read for a client gone.
      if (gone?.aborted) return { events: [], position: since };
    }
  }

  /**
   * A stream of the events after `since`, or after `Last-Event-ID` (which wins), else the newest.
   * It holds one of its client's places from before its first read until it closes.
   */
  async stream(
    query: FeedQuery,
    lastEventId: string | undefined,
    viewer: FeedViewer | undefined,
    watcher: FeedWatcher,
  ): Promise<EventStream> {
    if (this.stopping) throw new FeedStoppingError();
    const release = this.place(this.streamSlots, watcher.holder, TooManyStreamsError);
    let from: bigint;
    try {
      from = await this.startOf(query, lastEventId);
      // Checked again: the reads above let other requests in.
      if (this.stopping) throw new FeedStoppingError();
    } catch (error) {
      release();
      throw error;
    }
    const stream = new EventStream(this.source, from, query.scope, viewer);
    this.streams.add(stream);
    stream.once('close', () => {
      release();
      this.forget(stream);
    });
    this.heartbeat ??= setInterval(this.beat, this.config.EVENTS_HEARTBEAT_MS);
    return stream;
  }

  /** Where a stream starts: after `Last-Event-ID`, else after `since`, else at the newest. */
  private async startOf(query: FeedQuery, lastEventId: string | undefined): Promise<bigint> {
    // An empty Last-Event-ID names no event (a stream's empty `id:` leaves its client with
    // none): it is absent, so `since`, else the newest, says where to start
    // (docs/extensions.md section 8).
    const resumeAfter = lastEventId?.trim() || undefined;
    if (resumeAfter !== undefined) return this.checkedPosition(resumeAfter, 'Last-Event-ID');
    if (query.since !== undefined) return this.checkedPosition(query.since, 'since');
    return (await this.events.bounds()).newest;
  }

  /** A place of `slots` for `holder`, or the error that says which limit refused it. */
  private place(
    slots: WatcherSlots,
    holder: string,
    TooMany: new (limit: SlotRefusal, max: number) => Error,
  ): ReleaseSlot {
    const slot = slots.take(holder);
    if (typeof slot === 'function') return slot;
    throw new TooMany(slot, slot === 'instance' ? slots.max : slots.perClient);
  }

  /** A stream ended: it is no longer sent; with the last one, the heartbeat stops. */
  private forget(stream: EventStream): void {
    this.streams.delete(stream);
    if (this.streams.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  private readonly beat = (): void => {
    const now = Date.now();
    for (const stream of this.streams) stream.beat(now);
  };

  /** A position a client may follow from: 400 when it is no id or beyond the newest, 410 when expired. */
  private async checkedPosition(text: string, field: string): Promise<bigint> {
    const since = parsePosition(text);
    if (since === undefined) {
      throw InvalidRequestError.of(field, `${field} must be ${POSITION_RULE}`);
    }
    const bounds = await this.events.bounds();
    const problem = positionProblem(since, bounds);
    if (problem === 'beyond') {
      throw InvalidRequestError.of(field, `${field} is beyond the newest event (${bounds.newest})`);
    }
    if (problem === 'expired') throw new FeedPositionExpiredError(since, bounds.oldest);
    return since;
  }

  /** Waits until events after `after` may have committed, the deadline, or the client is gone. */
  private news(after: bigint, deadline: number, gone?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let unsubscribe = (): void => undefined;
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        gone?.removeEventListener('abort', done);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      this.waiting.add(done);
      unsubscribe = this.tail.subscribe(done);
      gone?.addEventListener('abort', done);
      // What committed between the read and now, which the tail already has.
      const newest = this.tail.newest;
      if ((newest !== undefined && newest > after) || gone?.aborted) done();
    });
  }
}
