import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from '../config/app-config';
import { DatabaseServer } from '../database/database-server';
import type { StoredEvent } from './change-event';
import { EventsRepository, FEED_CHANNEL, FeedRead } from './events.repository';
import { contiguousRun } from './feed-position';

/** Events kept in memory for the watchers of this instance: about 1 MB at 500 bytes each. */
const TAIL_CAPACITY = 2000;
/** Rows per read of the feed. */
const READ_BATCH = 1000;
/** The longest wait between two attempts to open the listening connection again. */
const MAX_RECONNECT_MS = 30_000;

/**
 * The newest events of the change feed, read once for every watcher of this instance
 * (docs/extensions.md section 8). One connection of its own (not the pool's: LISTEN needs a
 * session) listens for the NOTIFY each commit sends, a wake-up without data, and then the new
 * events are read in one statement and handed to every watcher. Without that connection
 * (through a transaction pooler, which cannot LISTEN, or while it is being opened again after
 * it dropped) the feed is polled every EVENTS_POLL_MS instead. Nothing is read while no one
 * watches.
 */
@Injectable()
export class FeedTail implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ChangeFeed');
  /** The newest id read, once read; the buffer ends with it. */
  private position?: bigint;
  /** The events up to `position`, ids one after the other. */
  private buffer: StoredEvent[] = [];
  private readonly watchers = new Set<() => void>();
  private listener?: Client;
  private listening = false;
  private pollTimer?: NodeJS.Timeout;
  private reconnectTimer?: NodeJS.Timeout;
  private reconnectDelay = 0;
  private refreshing?: Promise<void>;
  private again = false;
  private stopped = false;
  private failing = false;

  constructor(
    private readonly config: AppConfig,
    private readonly server: DatabaseServer,
    private readonly events: EventsRepository,
  ) {}

  /** Whether the instance is woken by NOTIFY (false: it polls). */
  get isListening(): boolean {
    return this.listening;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.pollTimer = setInterval(() => {
      if (!this.listening) this.wake();
    }, this.config.EVENTS_POLL_MS).unref();
    if (!this.server.throughPooler()) await this.listen();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.reconnectTimer);
    this.watchers.clear();
    const listener = this.listener;
    this.listener = undefined;
    this.listening = false;
    await listener?.end().catch(() => undefined);
    await this.refreshing;
  }

  /** The newest id read, once the tail has read. */
  get newest(): bigint | undefined {
    return this.position;
  }

  /** Calls `wake` whenever events newer than those read before arrive; answers how to stop. */
  subscribe(wake: () => void): () => void {
    // Idle, the tail read nothing: what it holds is old, start again from the newest.
    if (this.watchers.size === 0) this.position = undefined;
    this.watchers.add(wake);
    if (this.position === undefined) this.wake();
    return () => {
      this.watchers.delete(wake);
      // No one watches: nothing keeps what is held current, so nothing is read from it.
      if (this.watchers.size === 0) {
        this.position = undefined;
        this.buffer = [];
      }
    };
  }

  /**
   * At most `take` events after `after` (of one scope when given): from memory when they are
   * still there, else from the database. Memory that holds nothing newer may not yet have read
   * a change that committed before this read began (its notification still on its way): the
   * database answers then, so that a caller sees what it has just changed.
   */
  async read(after: bigint, scope: string | undefined, take: number): Promise<FeedRead> {
    const held = this.held(after, scope, take);
    if (held !== undefined && held.events.length > 0) return held;
    return this.events.after(after, scope, take);
  }

  /** What {@link read} answers, when memory holds it (at once, without a promise); else undefined. */
  held(after: bigint, scope: string | undefined, take: number): FeedRead | undefined {
    const position = this.position;
    // Held events are read only while watchers keep them current (see `subscribe`).
    if (position === undefined || this.watchers.size === 0) return undefined;
    if (after === position) return { events: [], through: position };
    const first = this.buffer.length > 0 ? this.buffer[0].id : position + 1n;
    if (after < first - 1n || after > position) return undefined;
    const events: StoredEvent[] = [];
    for (let i = Number(after - first + 1n); i < this.buffer.length; i++) {
      const event = this.buffer[i];
      if (scope !== undefined && event.scopeName !== scope) continue;
      events.push(event);
      if (events.length === take) return { events, through: event.id };
    }
    return { events, through: position };
  }

  /** Reads what is new (once at a time: a wake-up during a read reads again after it). */
  wake(): void {
    if (this.stopped || this.watchers.size === 0) return;
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = this.refresh().finally(() => {
      this.refreshing = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async refresh(): Promise<void> {
    try {
      let advanced = false;
      let position = this.position ?? (await this.events.newest());
      if (this.position === undefined) {
        // Everyone is told: what committed before the tail began is read from the database.
        this.position = position;
        this.buffer = [];
        advanced = true;
      }
      for (;;) {
        const { events } = await this.events.after(position, undefined, READ_BATCH);
        const run = contiguousRun(
          position,
          events.map((e) => e.id),
        );
        if (run > 0) {
          this.buffer.push(...events.slice(0, run));
          position = events[run - 1].id;
          this.position = position;
          advanced = true;
        }
        if (run < events.length) {
          // Only retention deleting under a reader makes a hole: start again from the newest.
          this.logger.warn(`the change feed has a hole after ${position}; reading from the newest`);
          this.position = undefined;
          break;
        }
        if (events.length < READ_BATCH) break;
      }
      if (this.buffer.length > TAIL_CAPACITY) {
        this.buffer = this.buffer.slice(this.buffer.length - TAIL_CAPACITY);
      }
      if (this.failing) this.logger.log('the change feed is read again');
      this.failing = false;
      if (advanced) for (const wake of [...this.watchers]) wake();
    } catch (error) {
      if (!this.failing) {
        this.logger.warn(`the change feed cannot be read: ${(error as Error).message}`);
      }
      this.failing = true;
    }
  }

  /** Opens the listening connection; when it cannot, or it drops, polls and tries again. */
  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.server.url(),
      connectionTimeoutMillis: this.config.DB_CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = false;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(
        `the change feed's listening connection is lost (${error?.message ?? 'closed'}): ` +
          `polling every ${this.config.EVENTS_POLL_MS} ms until it is back`,
      );
      this.retryListen();
    };
    this.listener = client;
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => this.wake());
    try {
      await client.connect();
      await client.query(`LISTEN ${FEED_CHANNEL}`);
      if (this.listener !== client) return;
      this.listening = true;
      this.reconnectDelay = 0;
      // What committed while no one listened.
      this.wake();
    } catch (error) {
      lost(error as Error);
    }
  }

  private retryListen(): void {
    this.reconnectDelay = Math.min(
      MAX_RECONNECT_MS,
      Math.max(this.config.EVENTS_POLL_MS, this.reconnectDelay * 2),
    );
    this.reconnectTimer = setTimeout(() => void this.listen(), this.reconnectDelay).unref();
  }
}
