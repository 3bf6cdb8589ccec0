import { seededSegments, streamName } from './support/database';
import type { RequestSource } from './support/load';

/**
 * The servers measured in the same run: the service, the bare Nest application over the
 * floor's handlers, and plain node:http over the same handlers; with `--baseline`, also the
 * service of another build (`baseline`, see `bench/run.ts`).
 */
export type Target = 'service' | 'baseline' | 'nest' | 'node';
/** The servers of a run, in the order they are measured and shown. */
export const TARGETS: readonly Target[] = ['service', 'nest', 'node'];
export const TARGETS_WITH_BASELINE: readonly Target[] = ['service', 'baseline', 'nest', 'node'];

/** The data each group of scenarios runs on (see `bench/run.ts`, which seeds it). */
export const DATA = {
  /** 1,000 streams: get stream and get scope run while the database holds only these. */
  small: { scope: 'bench-1k', streams: 1_000 },
  /** 10,000 streams, a tenth of them tagged `group-3`. */
  medium: { scope: 'bench-10k', streams: 10_000, tag: 'group-3' },
  /** One stream with a long scaling history. */
  history: { scope: 'history', stream: 'deep', epochs: 10_000, start: 1_700_000_000_000 },
  /** Streams each server rescales, and scopes each creates streams in. */
  updates: { streams: 1_000 },
  /**
   * A scope of this many streams, written right after the small reads: the second get-stream
   * run and every later scenario run on it; list-100k lists it.
   */
  large: { scope: 'bench-large', streams: 100_000 },
  /** A reader group of three streams with two readers online, created through the service. */
  readerGroup: {
    scope: 'bench-1k',
    name: 'readers',
    streams: [streamName(1), streamName(2), `bench-1k/${streamName(3)}`],
    readers: ['reader-1', 'reader-2'],
  },
} as const;

export const writesScope = (target: Target): string => `writes-${target}`;
export const updatesScope = (target: Target): string => `updates-${target}`;

/** The stream read by get-stream: rate-scaled, with retention and tags. */
export const STREAM_READ = streamName(600);

/** A narrow window: the epoch active at `from` and the next two, in the middle of the history. */
export const NARROW_WINDOW = (() => {
  const from = DATA.history.start + (DATA.history.epochs / 2) * 1000 + 500;
  return { from, to: from + 2000 };
})();

/**
 * Answers of megabytes take the better part of a second each on both servers: fewer at once
 * keep a short run meaningful (and measure the work, not a queue of it).
 */
const HEAVY_CONNECTIONS = 2;

export interface Scenario {
  name: string;
  title: string;
  /** When it runs: on the small data, then right after growing to the large, then the rest. */
  phase: 'small' | 'large' | 'main';
  connections?: number;
  /**
   * The least measured time, for answers of seconds each: a short run would end before the
   * first of them, and one request says little.
   */
  minSeconds?: number;
  /**
   * The requests, made afresh for each call (writes need new names). One source per server and
   * scenario: its rounds go on where the last left off (no name made twice, each rescale flips).
   */
  requests(target: Target): RequestSource;
  /**
   * How the servers' answers to a read are compared before measuring: byte for byte, or their
   * shape (a health tree: the same nodes and statuses, its details' values aside).
   */
  compare?: 'bytes' | 'shape';
  /** Asks the service what the requests need before they are made (a page's token). */
  prepare?(serviceUrl: string): Promise<void>;
}

const get =
  (path: string): RequestSource =>
  () => ({ method: 'GET', path });

const streamsOf = (scope: string) => `/v1/scopes/${scope}/streams`;
export const readerGroupsOf = (scope: string): string => `/v1/scopes/${scope}/readergroups`;

/** A reader group reading two streams of the small scope (they exist from the start). */
export const readerGroupBody = (readerGroupName: string) => ({
  readerGroupName,
  streams: [`${DATA.small.scope}/${streamName(1)}`, `${DATA.small.scope}/${streamName(2)}`],
});

/** A request body as clients send it: rate scaling, a day of retention, two tags. */
export const CREATE_BODY = {
  scalingPolicy: {
    type: 'BY_RATE_IN_EVENTS_PER_SEC',
    targetRate: 100,
    scaleFactor: 2,
    minSegments: 2,
  },
  retentionPolicy: { type: 'LIMITED_DAYS', value: 1 },
  streamTags: ['bench', 'orders'],
};

/** An update that rescales: a fixed policy with the other number of segments. */
export const updateBody = (minSegments: number) => ({
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
  retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 1024 },
  streamTags: ['bench', 'rescaled'],
});

/** The page size of the paged-list scenarios. */
const PAGE = 100;

/** The token of the last page of the large scope, as the service issued it (see list-page-last). */
let lastPageToken = '';

/**
 * Walks `path` from its start to just after its first `count` items, in pages of at most 1,000,
 * and answers the service's token for that position.
 */
async function tokenAfter(serviceUrl: string, path: string, count: number): Promise<string> {
  let token: string | undefined;
  for (let left = count; left > 0;) {
    const limit = Math.min(1000, left);
    const query = `limit=${limit}${token ? `&continuationToken=${token}` : ''}`;
    const res = await fetch(`${serviceUrl}${path}?${query}`);
    const body = (await res.json()) as { continuationToken?: string };
    if (res.status !== 200 || !body.continuationToken) {
      throw new Error(`${path}?${query}: ${res.status}, no continuation token`);
    }
    token = body.continuationToken;
    left -= limit;
  }
  return token!;
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'get-stream',
    title: 'get a stream (1,000 in the database)',
    phase: 'small',
    compare: 'bytes',
    requests: () => get(`${streamsOf(DATA.small.scope)}/${STREAM_READ}`),
  },
  {
    name: 'get-scope',
    title: 'get a scope',
    phase: 'small',
    compare: 'bytes',
    requests: () => get(`/v1/scopes/${DATA.small.scope}`),
  },
  {
    name: 'get-stream-100k',
    title: 'get a stream (100,000 in the database)',
    phase: 'large',
    compare: 'bytes',
    requests: () => get(`${streamsOf(DATA.small.scope)}/${STREAM_READ}`),
  },
  {
    name: 'list-1k',
    title: 'list a scope of 1,000 streams',
    phase: 'main',
    compare: 'bytes',
    requests: () => get(streamsOf(DATA.small.scope)),
  },
  {
    name: 'list-10k',
    title: 'list a scope of 10,000 streams (3 MB answers)',
    phase: 'main',
    connections: HEAVY_CONNECTIONS,
    compare: 'bytes',
    requests: () => get(streamsOf(DATA.medium.scope)),
  },
  {
    name: 'list-tag',
    title: 'list by tag (1,000 of 10,000)',
    phase: 'main',
    compare: 'bytes',
    requests: () =>
      get(`${streamsOf(DATA.medium.scope)}?filter_type=tag&filter_value=${DATA.medium.tag}`),
  },
  {
    name: 'scaling-events-narrow',
    title: 'scaling events, narrow window (10,000 epochs)',
    phase: 'main',
    compare: 'bytes',
    requests: () =>
      get(
        `${streamsOf(DATA.history.scope)}/${DATA.history.stream}/scaling-events?from=${NARROW_WINDOW.from}&to=${NARROW_WINDOW.to}`,
      ),
  },
  {
    name: 'scaling-events-wide',
    title: 'scaling events, all 10,000 epochs (1.6 MB answers)',
    phase: 'main',
    connections: HEAVY_CONNECTIONS,
    compare: 'bytes',
    requests: () =>
      get(
        `${streamsOf(DATA.history.scope)}/${DATA.history.stream}/scaling-events?from=0&to=${Number.MAX_SAFE_INTEGER}`,
      ),
  },
  {
    name: 'get-reader-group',
    title: 'get a reader group (3 streams, 2 readers)',
    phase: 'small',
    compare: 'bytes',
    requests: () =>
      get(`/v1/scopes/${DATA.readerGroup.scope}/readergroups/${DATA.readerGroup.name}`),
  },
  {
    name: 'health',
    title: 'GET /v1/health, probe storm (50 connections)',
    phase: 'main',
    connections: 50,
    compare: 'shape',
    requests: () => get('/v1/health'),
  },
  {
    name: 'readyz',
    title: 'GET /readyz, probe storm (50 connections)',
    phase: 'main',
    connections: 50,
    compare: 'bytes',
    requests: () => get('/readyz'),
  },
  {
    name: 'create-stream',
    title: 'create a stream (+ _MARK, epoch 0)',
    phase: 'main',
    requests: (target) => {
      let n = 0;
      return () => ({
        method: 'POST',
        path: streamsOf(writesScope(target)),
        body: JSON.stringify({ streamName: `created-${++n}`, ...CREATE_BODY }),
      });
    },
  },
  {
    name: 'update-rescale',
    title: 'update with a rescale',
    phase: 'main',
    requests: (target) => {
      // Round robin over the streams; each update flips a stream between one and two segments.
      let k = 0;
      return () => {
        const i = (k % DATA.updates.streams) + 1;
        const round = Math.floor(k++ / DATA.updates.streams);
        const seeded = seededSegments(i);
        return {
          method: 'PUT',
          path: `${streamsOf(updatesScope(target))}/${streamName(i)}`,
          body: JSON.stringify(updateBody(round % 2 === 0 ? 3 - seeded : seeded)),
        };
      };
    },
  },
  {
    name: 'create-reader-group',
    title: 'create a reader group of two streams (+ _RG, its _MARK, epochs 0)',
    phase: 'main',
    requests: (target) => {
      let n = 0;
      return () => ({
        method: 'POST',
        path: readerGroupsOf(writesScope(target)),
        body: JSON.stringify(readerGroupBody(`group-${++n}`)),
      });
    },
  },
  {
    name: 'list-page-first',
    title: `list page first: ${PAGE} of 100,000 streams`,
    phase: 'main',
    compare: 'bytes',
    requests: () => get(`${streamsOf(DATA.large.scope)}?limit=${PAGE}`),
  },
  {
    name: 'list-page-last',
    title: `list page last: ${PAGE} of 100,000 streams`,
    phase: 'main',
    compare: 'bytes',
    async prepare(serviceUrl) {
      const { scope, streams } = DATA.large;
      lastPageToken = await tokenAfter(serviceUrl, streamsOf(scope), streams - PAGE);
    },
    requests: () =>
      get(`${streamsOf(DATA.large.scope)}?limit=${PAGE}&continuationToken=${lastPageToken}`),
  },
  // Last: the garbage of its 30 MB answers would be collected during the next scenario.
  {
    name: 'list-100k',
    title: 'list a scope of 100,000 streams (30 MB answers)',
    phase: 'main',
    connections: 1,
    minSeconds: 15,
    compare: 'bytes',
    requests: () => get(streamsOf(DATA.large.scope)),
  },
];
