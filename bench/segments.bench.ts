/**
 * What the segments of a stream cost to read and to scale by hand (docs/extensions.md section 7),
 * as the history and the number of active segments grow: each read and the scale of one segment
 * on streams of 10,000 epochs and of 1,000 active segments, against the same on a stream of 10
 * epochs and 10 segments, measured in the same run on the built service.
 *
 *   npm run bench:segments                # 3 s warm-up, 10 s measured per scenario
 *   npm run bench:segments -- --quick     # 1 s + 3 s
 *
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * where it may create a database `tributary_bench_*`, dropped at the end. The headline is CPU
 * time per request: the service process's own, and that of the database backends serving its
 * pool (`application_name` tributary), both read from /proc. Prints one `ratio:` line per target.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { BenchDatabase, seedManualScales } from './support/database';
import { drive, RequestSpec } from './support/load';
import { cpuSeconds } from './support/memory';
import { summarize } from './support/timing';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false } },
});
const WARMUP_SECONDS = args.quick ? 1 : 3;
/** Before any measure, every route is driven this long, so each is compiled when measured. */
const FIRST_WARMUP_SECONDS = args.quick ? 4 : 10;
const SECONDS = args.quick ? 3 : 10;
const CONNECTIONS = 10;
/** Streams scaled round robin, so no stream has two scales in flight at once. */
const SCALED_STREAMS = 100;
const SCOPE = 'segments-bench';
const START = Date.UTC(2026, 0, 1);

interface Shape {
  segments: number;
  epochs: number;
}
const BASE: Shape = { segments: 10, epochs: 10 };
const DEEP: Shape = { segments: 10, epochs: 10_000 };
const WIDE: Shape = { segments: 1_000, epochs: 10 };

const name = (kind: string, i = 0) => `${kind}-${i}`;
const streamPath = (stream: string) => `/v1/scopes/${SCOPE}/streams/${stream}`;

interface Figures {
  name: string;
  requests: number;
  serviceMicros: number;
  databaseMicros: number;
  p50: number;
  load: number;
}

/** CPU seconds of the database backends that serve the service, by process id. */
async function backendCpu(sql: Client): Promise<Map<number, number>> {
  const { rows } = await sql.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE application_name = 'tributary'`,
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, cpuSeconds(pid));
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}

/** The CPU the backends used between two readings; a backend that started meanwhile counts whole. */
const usedBetween = (before: Map<number, number>, after: Map<number, number>): number =>
  [...after].reduce((sum, [pid, cpu]) => sum + cpu - (before.get(pid) ?? 0), 0);

async function run(
  service: ServiceProcess,
  sql: Client,
  scenario: string,
  next: () => RequestSpec,
): Promise<Figures> {
  const check = next();
  const res = await fetch(`${service.baseUrl}${check.path}`, {
    method: check.method,
    headers: { 'content-type': 'application/json' },
    body: check.body,
  });
  if (!res.ok) throw new Error(`${scenario}: ${res.status} ${await res.text()}`);
  const load = loadavg()[0];
  await drive(service.baseUrl, next, CONNECTIONS, WARMUP_SECONDS);
  const samples: number[] = [];
  const [serviceBefore, databaseBefore] = [cpuSeconds(service.pid), await backendCpu(sql)];
  const result = await drive(service.baseUrl, next, CONNECTIONS, SECONDS, (ms) => samples.push(ms));
  const [serviceAfter, databaseAfter] = [cpuSeconds(service.pid), await backendCpu(sql)];
  if (result.non2xx + result.errors > 0) {
    throw new Error(`${scenario}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  const figures = {
    name: scenario,
    requests: samples.length,
    serviceMicros: ((serviceAfter - serviceBefore) * 1e6) / samples.length,
    databaseMicros: (usedBetween(databaseBefore, databaseAfter) * 1e6) / samples.length,
    p50: summarize(samples).p50,
    load,
  };
  console.log(
    `${scenario}: ${figures.requests} requests, CPU µs/req service ${figures.serviceMicros.toFixed(0)}` +
      ` + database ${figures.databaseMicros.toFixed(0)}, p50 ${figures.p50.toFixed(1)} ms, load ${load.toFixed(2)}`,
  );
  return figures;
}

/** GETs of one path, again and again. */
const reads = (path: string) => (): RequestSpec => ({ method: 'GET', path });

/**
 * Scales of one segment, round robin over `streams`: each seals the segment at the next position
 * of its stream and opens one over the same keys, so every stream keeps its number of segments.
 */
async function scales(baseUrl: string, streams: string[]): Promise<() => RequestSpec> {
  const state = await Promise.all(
    streams.map(async (stream) => {
      const res = await fetch(`${baseUrl}${streamPath(stream)}/segments`);
      const { segments } = (await res.json()) as {
        segments: { number: number; keyStart: number; keyEnd: number }[];
      };
      const next = Math.max(...segments.map((s) => s.number)) + 1;
      return { stream, segments, next, position: 0 };
    }),
  );
  let turn = 0;
  return () => {
    const s = state[turn++ % state.length];
    const segment = s.segments[s.position];
    s.segments[s.position] = { ...segment, number: s.next++ };
    s.position = (s.position + 1) % s.segments.length;
    const body = {
      sealedSegments: [segment.number],
      newRanges: [{ keyStart: segment.keyStart, keyEnd: segment.keyEnd }],
    };
    return { method: 'POST', path: `${streamPath(s.stream)}/scale`, body: JSON.stringify(body) };
  };
}

/** The Linux load average and the machine, for the record. */
const machine = (): string =>
  `${cpus().length} CPUs (${cpus()[0]?.model.trim()}), load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${readFileSync('/proc/version', 'utf8').split(' ').slice(0, 3).join(' ')}`;

async function main(): Promise<void> {
  const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = await BenchDatabase.create(serverUrl);
  console.log(`start: ${machine()}`);
  const service = ServiceProcess.start(
    {
      DATABASE_URL: database.url,
      DB_POOL_SIZE: String(CONNECTIONS),
      PORT: String(await freePort()),
      // As in production: a JSON line per request, written and thrown away.
      LOG_LEVEL: 'log',
      LOG_FORMAT: 'json',
      NODE_ENV: 'production',
    },
    { stdoutFile: '/dev/null' },
  );
  const sql = new Client({ connectionString: database.url });
  try {
    await service.ready();
    await sql.connect();
    const seeded = Date.now();
    const all = (kind: string) => Array.from({ length: SCALED_STREAMS }, (_, i) => name(kind, i));
    for (const [kind, shape] of [
      ['base', BASE],
      ['wide', WIDE],
    ] as const) {
      await seedManualScales(sql, SCOPE, all(kind), shape.segments, shape.epochs, START);
    }
    await seedManualScales(sql, SCOPE, [name('deep')], DEEP.segments, DEEP.epochs, START);
    await sql.query('ANALYZE');
    console.log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

    /** The middle of a history: an epoch's time, and the segment it opened. */
    const middle = ({ segments, epochs }: Shape) => {
      const epoch = Math.floor(epochs / 2);
      return { at: START + epoch * 1000, segment: segments - 1 + epoch };
    };
    const scenarios: [string, () => RequestSpec][] = [];
    for (const [kind, shape] of [
      ['base', BASE],
      ['deep', DEEP],
      ['wide', WIDE],
    ] as const) {
      const path = streamPath(name(kind));
      const { at, segment } = middle(shape);
      scenarios.push(
        [`segments-now-${kind}`, reads(`${path}/segments`)],
        [`segments-at-${kind}`, reads(`${path}/segments?at=${at}`)],
        [`segment-${kind}`, reads(`${path}/segments/${segment}`)],
      );
    }
    for (const kind of ['base', 'wide']) {
      scenarios.push([`scale-${kind}`, await scales(service.baseUrl, all(kind))]);
    }
    let turn = 0;
    const everything = () => scenarios[turn++ % scenarios.length][1]();
    await drive(service.baseUrl, everything, CONNECTIONS, FIRST_WARMUP_SECONDS);
    const figures: Figures[] = [];
    for (const [scenario, next] of scenarios) {
      figures.push(await run(service, sql, scenario, next));
    }
    console.log(`end: ${machine()}`);

    const of = (scenario: string) => figures.find((f) => f.name === scenario)!;
    console.log(
      '\n| scenario | requests | CPU µs/req service | CPU µs/req database | p50 ms | load |',
    );
    console.log('| :-- | --: | --: | --: | --: | --: |');
    for (const f of figures) {
      console.log(
        `| ${f.name} | ${f.requests} | ${f.serviceMicros.toFixed(0)} | ` +
          `${f.databaseMicros.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.load.toFixed(2)} |`,
      );
    }
    console.log('');
    const ratio = (scenario: string, baseline: string, goal: number) => {
      const [f, b] = [of(scenario), of(baseline)];
      for (const [what, value] of [
        ['service CPU', f.serviceMicros / b.serviceMicros],
        [
          'service+database CPU',
          (f.serviceMicros + f.databaseMicros) / (b.serviceMicros + b.databaseMicros),
        ],
      ] as const) {
        const verdict = value <= goal ? 'met' : 'not met';
        console.log(
          `ratio: ${scenario}/${baseline} ${what} ${value.toFixed(2)} (goal <= ${goal}) ${verdict}`,
        );
      }
    };
    for (const read of ['segments-now', 'segments-at', 'segment']) {
      ratio(`${read}-deep`, `${read}-base`, 1.5);
      ratio(`${read}-wide`, `${read}-base`, 1.5);
    }
    ratio('scale-wide', 'scale-base', 2);
  } finally {
    await sql.end().catch(() => undefined);
    await service.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
