import autocannon from 'autocannon';
import { cpuSeconds, PeakRss } from './memory';
import { median, summarize, Timing } from './timing';

/** One HTTP request of a scenario; `next` makes a fresh one for each call (writes). */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
  /** All the request's headers, when not the JSON ones every request sends. */
  headers?: Record<string, string>;
}

export type RequestSource = () => RequestSpec;

export interface LoadOptions {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Requests per second of all connections together; as fast as answers come without it. */
  overallRate?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  latency: Timing;
  requests: number;
  /** Responses that were not 2xx, and connection errors: a scenario with any is suspect. */
  failures: number;
  statusCodes: Record<string, number>;
  /** Peak resident memory of the server process during the measured run, MiB. */
  peakRssMb: number;
  /**
   * CPU time the server process spent per request, in microseconds: unlike requests/s, it
   * hardly depends on what else the machine is doing.
   */
  cpuMicrosPerRequest: number;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** Drives `url` with `next()` for `seconds` at `connections` at once. */
export function drive(
  url: string,
  next: RequestSource,
  connections: number,
  seconds: number,
  onLatency?: (ms: number) => void,
  overallRate?: number,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        ...(overallRate === undefined ? {} : { overallRate }),
        headers: HEADERS,
        requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
      },
      (error: Error | null, result) => (error ? reject(error) : resolve(result)),
    );
    if (onLatency) {
      instance.on('response', (_client, status, _bytes, ms) => {
        if (status < 300) onLatency(ms);
      });
    }
  });
}

/**
 * Drives `baseUrl` with `next()` at a fixed concurrency: a warm-up, then a measured run whose
 * latencies are kept exactly (autocannon's own histogram rounds to whole milliseconds).
 */
export async function measure(
  baseUrl: string,
  next: RequestSource,
  pid: number,
  options: LoadOptions,
): Promise<LoadResult> {
  const { connections, overallRate } = options;
  await drive(baseUrl, next, connections, options.warmupSeconds, undefined, overallRate);
  const samples: number[] = [];
  const rss = new PeakRss(pid);
  const cpuBefore = cpuSeconds(pid);
  const result = await drive(
    baseUrl,
    next,
    connections,
    options.seconds,
    (ms) => samples.push(ms),
    overallRate,
  );
  const cpu = cpuSeconds(pid) - cpuBefore;
  const peakRssMb = rss.stop();
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0]),
  );
  return {
    requestsPerSecond: samples.length / result.duration,
    latency: summarize(samples),
    requests: samples.length,
    failures: result.non2xx + result.errors,
    statusCodes,
    peakRssMb,
    cpuMicrosPerRequest: samples.length ? (cpu * 1e6) / samples.length : 0,
  };
}

/**
 * One figure for rounds of the same measure: each the median of the rounds (a round's p50 and
 * p99 included), but the peak RSS, the highest of them, and the counts, their sums.
 */
export function medianOfRounds(rounds: LoadResult[]): LoadResult {
  if (rounds.length === 1) return rounds[0];
  const of = (figure: (r: LoadResult) => number) => median(rounds.map(figure));
  const statusCodes: Record<string, number> = {};
  for (const round of rounds) {
    for (const [code, count] of Object.entries(round.statusCodes)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
    }
  }
  return {
    requestsPerSecond: of((r) => r.requestsPerSecond),
    latency: {
      runs: rounds.reduce((sum, r) => sum + r.latency.runs, 0),
      p50: of((r) => r.latency.p50),
      p99: of((r) => r.latency.p99),
      mean: of((r) => r.latency.mean),
    },
    requests: rounds.reduce((sum, r) => sum + r.requests, 0),
    failures: rounds.reduce((sum, r) => sum + r.failures, 0),
    statusCodes,
    peakRssMb: Math.max(...rounds.map((r) => r.peakRssMb)),
    cpuMicrosPerRequest: of((r) => r.cpuMicrosPerRequest),
  };
}
