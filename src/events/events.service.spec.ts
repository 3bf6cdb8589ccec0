import { AppConfig } from '../config/app-config';
import { InvalidRequestError } from '../common/domain-error';
import { ConnectionPool } from '../database/connection-pool';
import { MetricsService } from '../metrics/metrics.service';
import type { StoredEvent } from './change-event';
import type { EventStream } from './event-stream';
import type { EventsRepository } from './events.repository';
import { TooManyLongPollsError, TooManyStreamsError } from './events.errors';
import { EventsService, FeedWatcher } from './events.service';
import type { FeedTail } from './feed-tail.service';

const LIMITS = {
  EVENTS_MAX_STREAMS: 3,
  EVENTS_MAX_LONG_POLLS: 3,
  EVENTS_MAX_STREAMS_PER_CLIENT: 2,
};

/**
 * A feed whose events are `stored` (ids 1 to 10 at most), whose tail wakes no one: a long poll
 * with nothing after its position waits out its `wait`. It reports to `metrics`.
 */
function feedOf(
  stored: StoredEvent[],
  metrics = new MetricsService(new AppConfig(), new ConnectionPool()),
  /** The tail's reads, when not those of `stored`. */
  read?: FeedTail['read'],
): EventsService {
  const config = Object.assign(new AppConfig(), LIMITS);
  const after = (position: bigint, take: number) => ({
    events: stored.filter((event) => event.id > position).slice(0, take),
    through: 10n,
  });
  const tail = {
    read:
      read ??
      ((position: bigint, _scope: string, take: number) => Promise.resolve(after(position, take))),
    held: (position: bigint, _scope: string, take: number) => after(position, take),
    subscribe: () => () => undefined,
    newest: 10n,
  } as unknown as FeedTail;
  const events = {
    bounds: () => Promise.resolve({ oldest: 1n, newest: 10n }),
  } as unknown as EventsRepository;
  return new EventsService(config, tail, events, metrics);
}

/** A feed with no event up to 10. */
const emptyFeed = () => feedOf([]);

const alice: FeedWatcher = { holder: 'principal:alice' };
const longPoll = { since: '10', wait: 60 };

/** Whether a holder may start one more long poll now (it is refused at once, or else waits). */
async function pollRefused(feed: EventsService, watcher: FeedWatcher): Promise<boolean> {
  const gone = new AbortController();
  const poll = feed.page(longPoll, undefined, { ...watcher, gone: gone.signal });
  gone.abort();
  try {
    await poll;
    return false;
  } catch (error) {
    if (error instanceof TooManyLongPollsError) return true;
    throw error;
  }
}

/**
 * What a long poll of alice's meets now, on a feed whose reads may never end: `refused` at
 * once, else `waits` (or `answered`, or the error that failed it).
 */
function probePlace(feed: EventsService): Promise<string> {
  const probe = feed.page(longPoll, undefined, alice).then(
    () => 'answered',
    (error: unknown) => (error instanceof TooManyLongPollsError ? 'refused' : String(error)),
  );
  const waits = new Promise<string>((resolve) => setImmediate(() => resolve('waits')));
  return Promise.race([probe, waits]);
}

describe('EventsService: the places of long polls and streams', () => {
  afterEach(() => jest.useRealTimers());

  it('takes a place only for a long poll, and gives it back when the poll times out', async () => {
    jest.useFakeTimers();
    const feed = emptyFeed();
    await feed.page({ since: '10' }, undefined, alice);
    await feed.page({ since: '10' }, undefined, alice);
    await feed.page({ since: '10' }, undefined, alice);
    const polls = [feed.page(longPoll, undefined, alice), feed.page(longPoll, undefined, alice)];
    await jest.advanceTimersByTimeAsync(0);
    await expect(feed.page(longPoll, undefined, alice)).rejects.toThrow(TooManyLongPollsError);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(await Promise.all(polls)).toEqual([
      { events: [], position: 10n },
      { events: [], position: 10n },
    ]);
    jest.useRealTimers();
    expect(await pollRefused(feed, alice)).toBe(false);
  });

  it('gives a long poll its place back when its client goes away, at once', async () => {
    const feed = emptyFeed();
    const gone = new AbortController();
    const first = feed.page(longPoll, undefined, { ...alice, gone: gone.signal });
    const second = feed.page(longPoll, undefined, { ...alice, gone: gone.signal });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await pollRefused(feed, alice)).toBe(true);
    gone.abort();
    await Promise.all([first, second]);
    expect(await pollRefused(feed, alice)).toBe(false);
  });

  it('frees the place of a poll whose client went away before it reads the feed again', async () => {
    // The feed answers each poll's first read; every read after those never ends.
    let reads = 0;
    const feed = feedOf([], undefined, () =>
      ++reads <= 2 ? Promise.resolve({ events: [], through: 10n }) : new Promise(() => undefined),
    );
    const gone = new AbortController();
    const polls = [0, 1].map(() => feed.page(longPoll, undefined, { ...alice, gone: gone.signal }));
    for (const poll of polls) poll.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    gone.abort();
    // Another request comes in at the earliest after what the going away set off.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await probePlace(feed)).toBe('waits');
    expect(reads).toBe(3);
  });

  it('frees the place of a poll whose client went away while a read for it was in flight', async () => {
    // No read of this feed ever ends.
    const feed = feedOf([], undefined, () => new Promise(() => undefined));
    const gone = new AbortController();
    const polls = [0, 1].map(() => feed.page(longPoll, undefined, { ...alice, gone: gone.signal }));
    for (const poll of polls) poll.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await probePlace(feed)).toBe('refused');
    gone.abort();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await probePlace(feed)).toBe('waits');
  });

  it('gives a long poll its place back when it is refused (a position it may not follow)', async () => {
    const feed = emptyFeed();
    for (let i = 0; i < 3; i++) {
      await expect(feed.page({ since: '11', wait: 60 }, undefined, alice)).rejects.toThrow(
        InvalidRequestError,
      );
    }
    expect(await pollRefused(feed, alice)).toBe(false);
  });

  it("refuses a client beyond its share, another client up to the instance's, and answers every poll at stop", async () => {
    const feed = emptyFeed();
    const polls = [
      feed.page(longPoll, undefined, alice),
      feed.page(longPoll, undefined, alice),
      feed.page(longPoll, undefined, { holder: 'principal:bob' }),
    ];
    await expect(feed.page(longPoll, undefined, alice)).rejects.toThrow(
      expect.objectContaining({
        message: expect.stringContaining('EVENTS_MAX_STREAMS_PER_CLIENT'),
      }),
    );
    await expect(feed.page(longPoll, undefined, { holder: 'address:10.0.0.1' })).rejects.toThrow(
      expect.objectContaining({ message: expect.stringContaining('(EVENTS_MAX_LONG_POLLS)') }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    feed.onModuleDestroy();
    expect(await Promise.all(polls)).toHaveLength(3);
  });

  it('gives a stream its place back when it closes, or when it could not start', async () => {
    const feed = emptyFeed();
    await expect(feed.stream({}, 'x', undefined, alice)).rejects.toThrow(InvalidRequestError);
    const streams: EventStream[] = [
      await feed.stream({}, undefined, undefined, alice),
      await feed.stream({}, undefined, undefined, alice),
    ];
    await expect(feed.stream({}, undefined, undefined, alice)).rejects.toThrow(
      new TooManyStreamsError('client', 2),
    );
    streams.push(await feed.stream({}, undefined, undefined, { holder: 'principal:bob' }));
    await expect(
      feed.stream({}, undefined, undefined, { holder: 'principal:carol' }),
    ).rejects.toThrow(new TooManyStreamsError('instance', 3));
    streams[0].destroy();
    await new Promise((resolve) => streams[0].once('close', resolve));
    streams[0] = await feed.stream({}, undefined, undefined, alice);
    expect(feed.openStreams).toBe(3);
    feed.onModuleDestroy();
    for (const stream of streams) {
      stream.resume();
      await new Promise((resolve) => stream.once('close', resolve));
    }
    expect(feed.openStreams).toBe(0);
  });
});

describe('EventsService: its metrics', () => {
  const event = (id: bigint): StoredEvent => ({
    id,
    scopeName: 'sales',
    resource: 'prn::/scope:sales',
    body: '{"operation":"createScope"}',
  });
  const read = async (metrics: MetricsService, name: string, via?: string) =>
    (await metrics.registry.getSingleMetric(name)!.get()).values.find(
      (sample) => via === undefined || sample.labels.via === via,
    )?.value;

  it('counts the events it delivers, in pages and on streams', async () => {
    const metrics = new MetricsService(new AppConfig(), new ConnectionPool());
    const feed = feedOf([event(8n), event(9n), event(10n)], metrics);
    await feed.page({ since: '7' }, undefined, alice);
    await feed.page({ since: '9', wait: 5 }, undefined, alice);
    await feed.page({ since: '10' }, undefined, alice);
    const stream = await feed.stream({ since: '8' }, undefined, undefined, alice);
    expect(await read(metrics, 'tributary_events_delivered_total', 'page')).toBe(4);
    expect(await read(metrics, 'tributary_events_delivered_total', 'stream')).toBe(2);
    stream.destroy();
  });

  it('shows the places its streams and long polls take, and their limits', async () => {
    const metrics = new MetricsService(new AppConfig(), new ConnectionPool());
    const feed = feedOf([], metrics);
    const gone = new AbortController();
    const poll = feed.page(longPoll, undefined, { ...alice, gone: gone.signal });
    const stream = await feed.stream({}, undefined, undefined, alice);
    expect(await read(metrics, 'tributary_events_open_streams')).toBe(1);
    expect(await read(metrics, 'tributary_events_long_polls')).toBe(1);
    expect(await read(metrics, 'tributary_events_max_streams')).toBe(LIMITS.EVENTS_MAX_STREAMS);
    expect(await read(metrics, 'tributary_events_max_long_polls')).toBe(
      LIMITS.EVENTS_MAX_LONG_POLLS,
    );
    gone.abort();
    await poll;
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    expect(await read(metrics, 'tributary_events_open_streams')).toBe(0);
    expect(await read(metrics, 'tributary_events_long_polls')).toBe(0);
  });
});
