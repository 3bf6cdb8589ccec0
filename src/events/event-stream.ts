import { Readable } from 'node:stream';
import { sseFrameBytes } from './change-event';
import type { FeedRead } from './events.repository';
import type { FeedViewer } from './feed-viewer';
import { visibleTo } from './feed-viewer';

/** Events read per step of a stream that catches up. */
const STEP = 500;
/** What a stream buffers before it waits for its client to take it. */
const HIGH_WATER_MARK = 64 * 1024;
/**
 * Bytes that may wait unsent for a client before it is cut off, beyond what the kernel's socket
 * buffers hold: a few hundred frames, far more than a client that keeps up ever leaves waiting.
 */
const MAX_UNSENT_BYTES = 1024 * 1024;
const CONNECTED = Buffer.from(': connected\n\n');
const KEEP_ALIVE = Buffer.from(': keep-alive\n\n');

/** What a stream needs of the feed: one for all the streams of an instance. */
export interface StreamSource {
  read(after: bigint, scope: string | undefined, take: number): Promise<FeedRead>;
  /** What `read` answers when it is in memory, at once; else undefined. */
  held(after: bigint, scope: string | undefined, take: number): FeedRead | undefined;
  subscribe(wake: () => void): () => void;
  /** Milliseconds between two attempts to read after a failed one. */
  retryMs: number;
  /** How long a client may take nothing of what waits for it (EVENTS_SLOW_CLIENT_MS). */
  slowClientMs: number;
  /** `count` events were pushed to a client (they count as delivered: docs/alerting.md). */
  sent(count: number): void;
}

/**
 * One Server-Sent Events stream of the change feed (docs/extensions.md section 8): the events
 * after `position` as they commit, one frame each, and a comment at each {@link beat} (the
 * instance's one timer beats every stream). It reads only when its client takes what it sent (a
 * readable stream pulled by the response): a client that takes nothing for `slowClientMs` while
 * data waits, or lets more than {@link MAX_UNSENT_BYTES} wait, is cut off (seen at the next beat). It
 * holds no database connection between reads. A failed read (the database away) is tried again,
 * comments still flowing; it ends by itself only when the service stops ({@link finish}) or the caller's credentials no longer hold.
 */
export class EventStream extends Readable {
  private pumping = false;
  private again = false;
  private blockedSince?: number;
  private retry?: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private finished = false;

  constructor(
    private readonly source: StreamSource,
    private position: bigint,
    private readonly scope: string | undefined,
    private readonly viewer: FeedViewer | undefined,
  ) {
    super({ highWaterMark: HIGH_WATER_MARK });
    this.unsubscribe = source.subscribe(this.pump);
    this.push(CONNECTED);
    this.pump();
  }

  /** Where the stream is: the last event it sent or skipped. */
  get at(): bigint {
    return this.position;
  }

  /** Ends the stream cleanly (the service stops): the client reconnects with Last-Event-ID. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.stop();
    this.push(null);
  }

  override _read(): void {
    this.blockedSince = undefined;
    this.pump();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.finished = true;
    this.stop();
    callback(error);
  }

  private stop(): void {
    this.unsubscribe();
    clearTimeout(this.retry);
  }

  private get full(): boolean {
    return this.readableLength >= this.readableHighWaterMark;
  }

  /** A comment line, or the cut-off of a client that does not take what waits for it. */
  beat(now: number): void {
    if (this.finished) return;
    const blocked = this.blockedSince !== undefined && now - this.blockedSince;
    if (
      this.readableLength > MAX_UNSENT_BYTES ||
      (blocked !== false && blocked > this.source.slowClientMs)
    ) {
      this.destroy(new Error('the client does not take what is sent'));
      return;
    }
    this.push(KEEP_ALIVE);
  }

  /** Sends what follows the position, while the client takes it (bound: the tail's wake-up). */
  private readonly pump = (): void => {
    if (this.finished) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    // Without a viewer to ask, what memory holds is sent at once: no promise per wake-up.
    if (this.viewer === undefined && this.sendHeld()) {
      this.pumping = false;
      if (this.again) {
        this.again = false;
        this.pump();
      }
      return;
    }
    this.sendNew()
      .catch(() => {
        // The database is away: try again in a while; comments keep the stream open.
        clearTimeout(this.retry);
        this.retry = setTimeout(this.pump, this.source.retryMs);
      })
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.pump();
        }
      });
  };

  /** Sends what memory holds after the position; false when it must be read from the database. */
  private sendHeld(): boolean {
    while (!this.finished) {
      if (this.full) {
        this.blockedSince ??= Date.now();
        return true;
      }
      const read = this.source.held(this.position, this.scope, STEP);
      if (read === undefined) return false;
      for (const event of read.events) this.push(sseFrameBytes(event));
      this.source.sent(read.events.length);
      this.position = read.through;
      if (read.events.length < STEP) return true;
    }
    return true;
  }

  private async sendNew(): Promise<void> {
    while (!this.finished) {
      if (this.full) {
        this.blockedSince ??= Date.now();
        return;
      }
      const read = await this.source.read(this.position, this.scope, STEP);
      let shown;
      try {
        shown = await visibleTo(this.viewer, read.events);
      } catch {
        // The credentials no longer hold: the client must authenticate again.
        this.finish();
        return;
      }
      if (this.finished) return;
      for (const event of shown) this.push(sseFrameBytes(event));
      this.source.sent(shown.length);
      this.position = read.through;
      if (read.events.length < STEP) return;
    }
  }
}
