/**
 * The change feed (docs/extensions.md section 8), measured on two instances of this build on one
 * database: R, which watchers follow, and W, through which changes are made.
 *
 * 1. `--watchers` SSE streams on R, changes at `--rate` per second through W for `--seconds`:
 *    delivery latency from each change's answer to each watcher's receipt (p50, p99), R's CPU,
 *    and R's RSS before the watchers and at its peak.
 * 2. A follower draining `--drain` events from R by pages of 1,000: events/s, R's CPU per event.
 * 3. The cost of a write: create-stream on W, its CPU per request and latency, without watchers
 *    and with the watchers of part 1 open on R.
 *
 *   npm run bench:feed [-- --watchers 1000 --rate 50 --seconds 20 --drain 100000]
 *
 * 4. `--baseline DIR`: instead of 1-3, the cost the feed adds to a write against a build without
 *    it (DIR: a checkout of the commit before the feed, built with `node scripts/build.mjs`):
 *    create-stream, one at a time, on an instance of each build (each on a database of its own),
 *    `--rounds` rounds of `--writes` requests alternating which goes first; CPU per request from
 *    /proc and latency p50/p99 of each.
 *
 *   npm run bench:feed -- --baseline /tmp/nofeed [--rounds 6 --writes 300]
 *
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * where it may create a database `tributary_bench_*`, dropped at the end.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { BenchDatabase } from './support/database';

const { values: args } = parseArgs({
  options: {
    watchers: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    drain: { type: 'string', default: '100000' },
    writes: { type: 'string', default: '500' },
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    /** Node options for R (`--max-semi-space-size=2`), to see where its memory goes. */
    'node-flags': { type: 'string', default: '' },
  },
});

const TICK = 100; // clock ticks per second of /proc/<pid>/stat
const cpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICK;
};
const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** A watcher: the time each event (by request id) arrived. */
function watch(url: string, arrivals: Map<string, number[]>): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { Accept: 'text/event-stream' } }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const now = performance.now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /"requestId":"([^"]+)"/.exec(block)?.[1];
          if (id) {
            const list = arrivals.get(id) ?? [];
            list.push(now);
            arrivals.set(id, list);
          }
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', reject);
    req.end();
  });
}

async function post(base: string, path: string, body: object): Promise<{ id: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.text();
  if (res.status !== 201) throw new Error(`${path}: ${res.status}`);
  return { id: res.headers.get('x-request-id')!, ms: performance.now() - started };
}

/** `count` create-streams on W, one at a time: CPU of W per request and latencies. */
async function writeCost(
  w: ServiceProcess,
  scope: string,
  count: number,
  each: (ms: number) => void = () => undefined,
) {
  const before = cpuMs(w.pid);
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const { ms } = await post(w.baseUrl, `/v1/scopes/${scope}/streams`, { streamName: `c${i}` });
    latencies.push(ms);
    each(ms);
  }
  return {
    cpuMsPerRequest: (cpuMs(w.pid) - before) / count,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** 4. Create-stream on this build (with the feed) and on the baseline's (without), alternating. */
async function againstBaseline(baseline: string): Promise<void> {
  const rounds = Number(args.rounds);
  const writes = Number(args.writes);
  const server = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const withDb = await BenchDatabase.create(server);
  await sleep(10);
  const withoutDb = await BenchDatabase.create(server);
  const start = async (databaseUrl: string, main?: string) =>
    ServiceProcess.start(
      { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', PORT: String(await freePort()) },
      { stdoutFile: '/dev/null', main, cwd: main === undefined ? undefined : baseline },
    );
  const sides = [
    { name: 'with the feed', service: await start(withDb.url), cpu: 0, latencies: [] as number[] },
    {
      name: 'without the feed (baseline)',
      service: await start(withoutDb.url, join(baseline, 'dist/src/main.js')),
      cpu: 0,
      latencies: [] as number[],
    },
  ];
  try {
    await Promise.all(sides.map((side) => side.service.ready()));
    for (const { service } of sides) {
      await post(service.baseUrl, '/v1/scopes', { scopeName: 'warm' });
      await writeCost(service, 'warm', 100, () => undefined);
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const scope = `r${round}`;
        await post(side.service.baseUrl, '/v1/scopes', { scopeName: scope });
        const cost = await writeCost(side.service, scope, writes, (ms) => side.latencies.push(ms));
        side.cpu += cost.cpuMsPerRequest * writes;
      }
    }
    const perRequest = sides.map((side) => side.cpu / (rounds * writes));
    for (const [i, side] of sides.entries()) {
      console.log(
        `create-stream ${side.name}: ${perRequest[i].toFixed(3)} ms CPU/request, ` +
          `p50 ${percentile(side.latencies, 50).toFixed(2)} ms, ` +
          `p99 ${percentile(side.latencies, 99).toFixed(2)} ms ` +
          `(${rounds} rounds of ${writes}, alternating)`,
      );
    }
    const extra = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(1)}%`;
    console.log(
      `the feed adds: CPU ${extra(perRequest[0], perRequest[1])}, ` +
        `p50 ${extra(percentile(sides[0].latencies, 50), percentile(sides[1].latencies, 50))}, ` +
        `p99 ${extra(percentile(sides[0].latencies, 99), percentile(sides[1].latencies, 99))} ` +
        `(target: under 10%)`,
    );
  } finally {
    await Promise.all(sides.map((side) => side.service.stop()));
    await Promise.all([withDb.drop(), withoutDb.drop()]);
  }
}

async function main(): Promise<void> {
  if (args.baseline !== undefined) {
    console.log(
      `load average at start: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (shared machine)`,
    );
    await againstBaseline(args.baseline);
    console.log(
      `load average at end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    agent.destroy();
    return;
  }
  const watchers = Number(args.watchers);
  const rate = Number(args.rate);
  const seconds = Number(args.seconds);
  const drain = Number(args.drain);
  const writes = Number(args.writes);
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (shared machine)`,
  );
  const database = await BenchDatabase.create(
    process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  const common = { DATABASE_URL: database.url, LOG_LEVEL: 'warn', EVENTS_MAX_STREAMS: '100000' };
  const [r, w] = [
    ServiceProcess.start(
      { ...common, PORT: String(await freePort()) },
      { stdoutFile: '/dev/null', execArgv: args['node-flags'].split(' ').filter(Boolean) },
    ),
    ServiceProcess.start(
      { ...common, PORT: String(await freePort()) },
      { stdoutFile: '/dev/null' },
    ),
  ];
  try {
    await Promise.all([r.ready(), w.ready()]);
    await post(w.baseUrl, '/v1/scopes', { scopeName: 'bench' });
    await post(w.baseUrl, '/v1/scopes', { scopeName: 'cost0' });
    await post(w.baseUrl, '/v1/scopes', { scopeName: 'warm' });
    await post(w.baseUrl, '/v1/scopes', { scopeName: 'cost1' });
    await writeCost(w, 'warm', 50);
    const quiet = await writeCost(w, 'cost0', writes);

    // 1. Watchers on R, changes through W.
    await sleep(1000);
    const rssBefore = rssMb(r.pid);
    const arrivals = new Map<string, number[]>();
    const closers: Array<() => void> = [];
    for (let i = 0; i < watchers; i++)
      closers.push(await watch(`${r.baseUrl}/v1/events`, arrivals));
    await sleep(2000);
    const rssConnected = rssMb(r.pid);
    let rssPeak = rssConnected;
    const cpuBefore = cpuMs(r.pid);
    const answered = new Map<string, number>();
    const total = rate * seconds;
    const started = performance.now();
    const pending: Array<Promise<void>> = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      await sleep(Math.max(0, due - performance.now()));
      pending.push(
        (async () => {
          const body = { streamName: `s${i}` };
          const res = await fetch(`${w.baseUrl}/v1/scopes/bench/streams`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });
          await res.text();
          const id = res.headers.get('x-request-id')!;
          answered.set(id, performance.now());
        })(),
      );
      if (i % rate === 0) rssPeak = Math.max(rssPeak, rssMb(r.pid));
    }
    await Promise.all(pending);
    await sleep(3000);
    rssPeak = Math.max(rssPeak, rssMb(r.pid));
    const watchCpu = cpuMs(r.pid) - cpuBefore;
    const latencies: number[] = [];
    let received = 0;
    // An event may arrive before its answer is read: its latency then counts as 0.
    for (const [id, at] of answered) {
      for (const t of arrivals.get(id) ?? []) {
        latencies.push(Math.max(0, t - at));
        received++;
      }
    }
    const loaded = await writeCost(w, 'cost1', writes);
    console.log(
      `watchers: ${watchers}, changes: ${total} at ${rate}/s, deliveries: ${received} of ${total * watchers}`,
    );
    console.log(
      `delivery latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
    console.log(
      `R: CPU ${(watchCpu / 1000).toFixed(2)} s over ${(seconds + 3).toFixed(0)} s ` +
        `(${((watchCpu / ((seconds + 3) * 1000)) * 100).toFixed(1)}% of a core); ` +
        `RSS ${rssBefore.toFixed(1)} MB before the watchers, ${rssConnected.toFixed(1)} MB ` +
        `with them connected and idle (+${(rssConnected - rssBefore).toFixed(1)} MB), ` +
        `peak ${rssPeak.toFixed(1)} MB (+${(rssPeak - rssBefore).toFixed(1)} MB)`,
    );
    console.log(
      `create-stream on W without watchers: ${quiet.cpuMsPerRequest.toFixed(2)} ms CPU/request, ` +
        `p50 ${quiet.p50.toFixed(1)} ms, p99 ${quiet.p99.toFixed(1)} ms`,
    );
    console.log(
      `create-stream on W with ${watchers} watchers on R: ${loaded.cpuMsPerRequest.toFixed(2)} ms CPU/request ` +
        `(${((loaded.cpuMsPerRequest / quiet.cpuMsPerRequest - 1) * 100).toFixed(1)}%), ` +
        `p50 ${loaded.p50.toFixed(1)} ms, p99 ${loaded.p99.toFixed(1)} ms`,
    );
    closers.forEach((close) => close());

    // 2. Draining events by pages of 1,000.
    const sql = new Client({ connectionString: database.url });
    await sql.connect();
    const [{ last_id: last }] = (
      await sql.query<{ last_id: string }>('SELECT last_id FROM change_feed')
    ).rows;
    const body = JSON.stringify({
      time: Date.now(),
      operation: 'updateStream',
      kind: 'stream',
      resource: 'prn::/scope:bench/stream:s1',
      scopeName: 'bench',
      streamName: 's1',
      principal: 'anonymous',
      etag: '"1.2"',
      object: {
        scopeName: 'bench',
        streamName: 's1',
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
      },
    });
    await sql.query(
      `INSERT INTO change_events (id, scope_name, resource, body)
       SELECT $1::bigint + g, 'bench', 'prn::/scope:bench/stream:s1', $2 FROM generate_series(1, $3) g`,
      [last, body, drain],
    );
    await sql.query('UPDATE change_feed SET last_id = last_id + $1', [drain]);
    await sql.end();
    const drainCpu = cpuMs(r.pid);
    const drainStart = performance.now();
    let position = last;
    let drained = 0;
    while (drained < drain) {
      const res = await fetch(`${r.baseUrl}/v1/events?since=${position}&limit=1000`);
      const page = (await res.json()) as { events: unknown[]; position: string };
      drained += page.events.length;
      position = page.position;
      if (page.events.length === 0) break;
    }
    const drainMs = performance.now() - drainStart;
    console.log(
      `drain: ${drained} events in ${(drainMs / 1000).toFixed(2)} s = ${Math.round((drained / drainMs) * 1000)} events/s, ` +
        `R CPU ${(((cpuMs(r.pid) - drainCpu) * 1000) / drained).toFixed(1)} µs/event`,
    );
    console.log(
      `load average at end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await Promise.all([r.stop(), w.stop()]);
    await database.drop();
    agent.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
