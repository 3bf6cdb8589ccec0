import { retryAfter } from '../api/client';
import { session } from '../session/session';
import { createStore } from '../state/store';
import type { ChangeEvent } from '../api/types';
import { EventStreamParser } from './event-stream-parser';

/** What a screen is told: an event, or that everything must be read again (a new position). */
export type FeedNews = { kind: 'event'; event: ChangeEvent } | { kind: 'relist' };

/**
 * Not started; taking a first position; following; trying again; or refused (the caller may not
 * read the feed).
 */
export type FeedState = 'off' | 'connecting' | 'following' | 'reconnecting' | 'refused';

/** What the follower needs from the browser: `fetch` and a timer (tests give their own). */
export interface FeedDeps {
  fetch: typeof fetch;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 10_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

function headers(accept: string, lastEventId?: string): Headers {
  const result = new Headers({ Accept: accept });
  const authorization = session.authorization();
  if (authorization) result.set('Authorization', authorization);
  if (lastEventId !== undefined) result.set('Last-Event-ID', lastEventId);
  return result;
}

function retryAfterMs(response: Response): number | undefined {
  const seconds = retryAfter(response);
  return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * Follows the change feed for the whole page (one stream, whatever the screens), read with
 * `fetch` so that it carries the same `Authorization` header as every other request
 * (`EventSource` cannot send one). It takes the feed's newest position first, and the page shows
 * its screens only then (see `ready`), so what they read is no older than that position, and
 * follows from it. A lost stream is resumed from the last id it gave (`Last-Event-ID`), so no
 * change is missed or seen twice. A position the feed no longer keeps (410) starts over with a
 * fresh position, and so does a first position taken late (the screens were shown while the feed
 * could not be reached): every screen reads again.
 */
export class ChangeFeed {
  readonly state = createStore<FeedState>('off');
  private readonly listeners = new Set<(news: FeedNews) => void>();
  private running: AbortController | undefined;
  /** The scope followed (`?scope=`), or none: the whole feed. */
  scope: string | undefined;

  constructor(private readonly deps: FeedDeps = { fetch: (...args) => fetch(...args), sleep }) {}

  subscribe(listener: (news: FeedNews) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Follows the whole feed, or only one scope's events (for a caller who may read that scope
   * and not everything). Following already the same, nothing changes.
   */
  start(scope?: string): void {
    if (this.running && this.scope === scope) return;
    this.running?.abort();
    const running = new AbortController();
    this.running = running;
    this.scope = scope;
    this.state.set('connecting');
    void this.follow(running.signal, scope).finally(() => {
      if (this.running === running) this.running = undefined;
    });
  }

  stop(state: 'off' | 'refused' = 'off'): void {
    this.running?.abort();
    this.running = undefined;
    this.state.set(state);
  }

  private tell(news: FeedNews): void {
    for (const listener of [...this.listeners]) listener(news);
  }

  private async follow(signal: AbortSignal, scope: string | undefined): Promise<void> {
    const url =
      scope === undefined ? '/v1/events' : `/v1/events?scope=${encodeURIComponent(scope)}`;
    let position: string | undefined;
    /** Whether the screens may hold what was read before the next position. */
    let stale = false;
    let retryMs = FIRST_RETRY_MS;
    while (!signal.aborted) {
      let waitMs: number | undefined;
      try {
        if (position === undefined) {
          const response = await this.deps.fetch(url, {
            headers: headers('application/json'),
            credentials: 'omit',
            signal,
          });
          if (!this.usable(response)) return;
          if (response.ok) {
            position = ((await response.json()) as { position: string }).position;
            this.state.set('following');
            if (stale) this.tell({ kind: 'relist' });
            stale = false;
          } else {
            waitMs = retryAfterMs(response);
          }
        }
        if (position !== undefined) {
          const response = await this.deps.fetch(url, {
            headers: headers('text/event-stream', position),
            credentials: 'omit',
            signal,
          });
          if (!this.usable(response)) return;
          if (response.status === 410) {
            position = undefined;
            stale = true;
            continue;
          }
          if (response.ok && response.body) {
            this.state.set('following');
            await this.read(response.body, (id) => {
              position = id;
              retryMs = FIRST_RETRY_MS;
            });
          } else {
            waitMs = retryAfterMs(response);
          }
        }
      } catch {
        // A lost connection or a refused one: tried again below, from the same position.
      }
      if (signal.aborted) return;
      if (position === undefined) stale = true;
      this.state.set('reconnecting');
      await this.deps.sleep(waitMs ?? retryMs, signal);
      retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
    }
  }

  /** False when following cannot go on: signed out (401) or not allowed to read the feed (403). */
  private usable(response: Response): boolean {
    if (response.status === 401) {
      session.expire();
      this.stop();
      return false;
    }
    if (response.status === 403) {
      this.stop('refused');
      return false;
    }
    return true;
  }

  /**
   * Tells each event of the stream until it ends or breaks, and after each one its id (where to
   * resume: a stream that breaks later resumes after the last event told, not before it).
   */
  private async read(body: ReadableStream<Uint8Array>, seen: (id: string) => void): Promise<void> {
    const parser = new EventStreamParser();
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const message of parser.push(decoder.decode(value, { stream: true }))) {
          this.tell({ kind: 'event', event: JSON.parse(message.data) as ChangeEvent });
          if (message.id !== undefined) seen(message.id);
        }
      }
    } finally {
      reader.releaseLock();
    }
  }
}

/** The page's one follower. */
export const changeFeed = new ChangeFeed();
