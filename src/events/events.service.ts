import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InvalidRequestError } from '../common/domain-error';
import { AppConfig } from '../config/app-config';
import type { StoredEvent } from './change-event';
import { EventStream, StreamSource } from './event-stream';
import { EventsRepository } from './events.repository';
import { FeedPositionExpiredError, FeedStoppingError, TooManyStreamsError } from './events.errors';
import { parsePosition, POSITION_RULE, positionProblem } from './feed-position';
import { FeedTail } from './feed-tail.service';
import type { FeedViewer } from './feed-viewer';
import { visibleTo } from './feed-viewer';

const DEFAULT_EVENTS_LIMIT = 100;

/** A page of the feed: its events, and where to follow from. */
export interface FeedPage {
  events: StoredEvent[];
  position: bigint;
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
  private stopping = false;
  /** What every stream reads from and is bound by. */
  private readonly source: StreamSource;
  /** One timer beats every stream, while there are streams. */
  private heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly config: AppConfig,
    private readonly tail: FeedTail,
    private readonly events: EventsRepository,
  ) {
    this.source = {
      read: tail.read.bind(tail),
      held: tail.held.bind(tail),
      subscribe: tail.subscribe.bind(tail),
      retryMs: config.EVENTS_POLL_MS,
      maxUnsentBytes: config.EVENTS_MAX_UNSENT_BYTES,
      slowClientMs: config.EVENTS_SLOW_CLIENT_MS,
    };
  }

  /** How many streams this instance sends now. */
  get openStreams(): number {
    return this.streams.size;
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
   * (at most `limit`), waiting up to `wait` seconds for the first one.
   */
  async page(query: FeedQuery, viewer: FeedViewer | undefined): Promise<FeedPage> {
    if (query.since === undefined) {
      return { events: [], position: (await this.events.bounds()).newest };
    }
    const since = await this.checkedPosition(query.since, 'since');
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
      if (shown.length > 0 || Date.now() >= deadline || this.stopping) {
        return { events: shown, position: shown.length > 0 ? shown[shown.length - 1].id : since };
      }
      await this.news(scanned, deadline);
    }
  }

  /** A stream of the events after `since`, or after `Last-Event-ID` (which wins), else the newest. */
  async stream(
    query: FeedQuery,
    lastEventId: string | undefined,
    viewer: FeedViewer | undefined,
  ): Promise<EventStream> {
    if (this.stopping) throw new FeedStoppingError();
    const max = this.config.EVENTS_MAX_STREAMS;
    if (this.streams.size >= max) throw new TooManyStreamsError(max);
    // An empty Last-Event-ID names no event (a stream's empty `id:` leaves its client with
    // none): it is absent, so `since`, else the newest, says where to start
    // (docs/extensions.md section 8).
    const resumeAfter = lastEventId?.trim() || undefined;
    const from =
      resumeAfter !== undefined
        ? await this.checkedPosition(resumeAfter, 'Last-Event-ID')
        : query.since !== undefined
          ? await this.checkedPosition(query.since, 'since')
          : (await this.events.bounds()).newest;
    // Checked again: the reads above let other requests in.
    if (this.stopping) throw new FeedStoppingError();
    if (this.streams.size >= max) throw new TooManyStreamsError(max);
    const stream = new EventStream(this.source, from, query.scope, viewer);
    this.streams.add(stream);
    stream.once('close', () => this.forget(stream));
    this.heartbeat ??= setInterval(this.beat, this.config.EVENTS_HEARTBEAT_MS);
    return stream;
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

  /** Waits until events after `after` may have committed, or the deadline. */
  private news(after: bigint, deadline: number): Promise<void> {
    return new Promise((resolve) => {
      let unsubscribe = (): void => undefined;
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      this.waiting.add(done);
      unsubscribe = this.tail.subscribe(done);
      // What committed between the read and now, which the tail already has.
      const newest = this.tail.newest;
      if (newest !== undefined && newest > after) done();
    });
  }
}
