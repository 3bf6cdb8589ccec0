/**
 * The benchmark: the built service against two references answering the
 * same routes with the same SQL from the same tables, in the same run, on the same data: a bare
 * Nest application (`bench/floor/nest-floor.ts`) and plain node:http (`bench/floor/floor-server.ts`),
 * both over the handlers of `bench/floor/floor-handlers.ts`. The headline is each server's own CPU
 * time per request: the Nest floor over the node floor is what the framework costs, the service
 * over the Nest floor what the service adds.
 *
 *   npm run bench                 # 3 s warm-up, 10 s measured per scenario and server
 *   npm run bench -- --quick      # 1 s + 3 s: a smoke run
 *   npm run bench -- --profile    # also writes CPU profiles of the three (bench/results/profiles)
 *   npm run bench -- --only get-stream,list-10k
 *
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * where it may create a database `tributary_bench_*`, dropped at the end. Checks first that the
 * three answer alike and write the same rows (a difference stops the run), then prints one
 * `ratio:` line per scenario and per target, the table, and writes bench/results/latest.json.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { freePort, ServiceProcess } from '../test/support/service-process';
import {
  CREATE_BODY,
  DATA,
  readerGroupBody,
  readerGroupsOf,
  Scenario,
  SCENARIOS,
  Target,
  TARGETS,
  updateBody,
  updatesScope,
  writesScope,
} from './scenarios';
import { BenchDatabase, seedHistory, seedStreams } from './support/database';
import { drive, LoadOptions, measure, RequestSpec } from './support/load';
import { summarizeProfiles } from './support/profile-summary';
import {
  cpuOf,
  cpuRatio,
  ScenarioReport,
  table,
  Target as Goal,
  targetLines,
} from './support/report';

const RESULTS = join(__dirname, 'results');
const PROFILES = join(RESULTS, 'profiles');
const POOL_SIZE = 10;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    only: { type: 'string' },
    connections: { type: 'string', default: '10' },
  },
});

const load: Omit<LoadOptions, 'connections'> = args.quick
  ? { warmupSeconds: 1, seconds: 3 }
  : { warmupSeconds: 3, seconds: 10 };
/** Before any measure, each server is driven this long over the small reads (JIT, pools). */
const WARM_UP_SECONDS = args.quick ? 4 : 10;
const connections = Number(args.connections);
const only = args.only?.split(',');
const selected = SCENARIOS.filter((s) => !only || only.includes(s.name));

type Servers = Record<Target, ServiceProcess>;

/** The floors run their TypeScript through ts-node, as this harness does. */
const FLOOR_MAINS: Record<Exclude<Target, 'service'>, string> = {
  nest: join(__dirname, 'floor/nest-floor.ts'),
  node: join(__dirname, 'floor/floor-server.ts'),
};

async function startServers(databaseUrl: string): Promise<Servers> {
  const common = { DATABASE_URL: databaseUrl, DB_POOL_SIZE: String(POOL_SIZE) };
  const profile = (name: Target) =>
    args.profile ? ['--cpu-prof', '--cpu-prof-dir', join(PROFILES, name)] : [];
  const service = ServiceProcess.start(
    {
      ...common,
      PORT: String(await freePort()),
      // As in production: a JSON line per request (probes aside), written and thrown away.
      LOG_LEVEL: 'log',
      LOG_FORMAT: 'json',
      NODE_ENV: 'production',
      // The floors set no statement timeout: a 30 MB list on a busy machine may take longer
      // than the service's default 5 s, and a refused answer measures nothing.
      DB_STATEMENT_TIMEOUT_MS: '60000',
    },
    { execArgv: profile('service'), stdoutFile: '/dev/null' },
  );
  await service.ready(); // the service applies its migrations: the tables exist from here on
  const floor = async (target: 'nest' | 'node') => {
    const server = ServiceProcess.start(
      { ...common, PORT: String(await freePort()) },
      {
        main: FLOOR_MAINS[target],
        execArgv: [
          ...profile(target),
          '--require',
          require.resolve('ts-node/register/transpile-only'),
        ],
      },
    );
    await server.ready();
    return server;
  };
  return { service, nest: await floor('nest'), node: await floor('node') };
}

async function text(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: string; link: string | null }> {
  const res = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  });
  return { status: res.status, body: await res.text(), link: res.headers.get('link') };
}

/** A mismatch between the servers: the run stops, since their figures would not compare. */
class NotEquivalent extends Error {}

/** Stops the run when the three differ, showing what each answered. */
function assertSame(what: string, answers: string[]): void {
  if (answers.every((answer) => answer === answers[0])) return;
  // From the first line where any answer differs from the service's.
  const lines = answers.map((answer) => answer.split('\n'));
  const from = lines[0].findIndex((line, i) => lines.some((other) => other[i] !== line));
  const shown = lines
    .map((a, i) => `  ${TARGETS[i]}: ${a.slice(Math.max(from, 0)).join('\n').slice(0, 1200)}`)
    .join('\n');
  throw new NotEquivalent(`${what}: the servers do not answer alike\n${shown}`);
}

/** What a write left in the tables, names, times and ids aside: the same for all or not. */
async function rowsOf(client: Client, scope: string, name: string): Promise<string> {
  const own = `scope_name = $1 AND (stream_name = $2 OR stream_name = '_MARK' || $2)`;
  const { rows } = await client.query<{ rows: unknown }>(
    `SELECT json_build_array(
       (SELECT jsonb_agg(to_jsonb(s) - '{name,owner_stream,created_at,updated_at}'::text[]
                         ORDER BY s.owner_stream IS NULL)
          FROM streams s WHERE scope_name = $1 AND (name = $2 OR name = '_MARK' || $2)),
       (SELECT jsonb_agg(to_jsonb(e) - '{stream_name,created_at}'::text[]
                         ORDER BY e.stream_name = $2, e.epoch)
          FROM stream_epochs e WHERE ${own}),
       (SELECT jsonb_agg(to_jsonb(g) - '{stream_name,start_time}'::text[]
                         ORDER BY g.stream_name = $2, g.number)
          FROM stream_segments g WHERE ${own}),
       (SELECT jsonb_agg(n.next_number ORDER BY n.stream_name = $2)
          FROM segment_numbering n WHERE ${own})) AS rows`,
    [scope, name],
  );
  return JSON.stringify(rows[0].rows);
}

/** A reader group's own rows: the group and its stream list. */
async function groupRowsOf(client: Client, scope: string, group: string): Promise<string> {
  const { rows } = await client.query<{ rows: unknown }>(
    `SELECT json_build_array(
       (SELECT jsonb_agg(to_jsonb(g) - '{name,created_at}'::text[])
          FROM reader_groups g WHERE scope_name = $1 AND name = $2),
       (SELECT jsonb_agg(to_jsonb(r) - '{reader_group}'::text[] ORDER BY r.position)
          FROM reader_group_streams r WHERE scope_name = $1 AND reader_group = $2)) AS rows`,
    [scope, group],
  );
  return JSON.stringify(rows[0].rows);
}

/** The audit rows about a resource, id, time and request id aside. */
async function auditOf(client: Client, resource: string): Promise<string> {
  const { rows } = await client.query<{ rows: unknown }>(
    `SELECT jsonb_agg(to_jsonb(a) - '{id,at,request_id}'::text[] ORDER BY a.id) AS rows
       FROM audit_events a WHERE resource = $1`,
    [resource],
  );
  return JSON.stringify(rows[0].rows);
}

/** The change feed's events about a resource, time, request id and entity tag aside. */
async function eventsOf(client: Client, resource: string): Promise<string> {
  const { rows } = await client.query<{ rows: unknown }>(
    `SELECT jsonb_agg(e.body::jsonb - '{time,requestId,etag}'::text[] ORDER BY e.id) AS rows
       FROM change_events e WHERE resource = $1`,
    [resource],
  );
  return JSON.stringify(rows[0].rows);
}

/**
 * Creates then rescales a stream, and creates a reader group, on each server with the same
 * bodies: the answers must be the same but for the names, and so must the rows written (the
 * audit rows and the change feed's events included).
 */
async function assertWritesEquivalent(servers: Servers, db: BenchDatabase): Promise<void> {
  const scope = 'checks';
  await db.use((c) => c.query(`INSERT INTO scopes (name) VALUES ($1)`, [scope]));
  const answers: string[] = [];
  for (const target of TARGETS) {
    const name = `check-${target}`;
    const base = `${servers[target].baseUrl}/v1/scopes/${scope}/streams`;
    const created = await text(base, {
      method: 'POST',
      body: JSON.stringify({ streamName: name, ...CREATE_BODY }),
    });
    const updated = await text(`${base}/${name}`, {
      method: 'PUT',
      body: JSON.stringify(updateBody(3)),
    });
    const group = await text(`${servers[target].baseUrl}${readerGroupsOf(scope)}`, {
      method: 'POST',
      body: JSON.stringify(readerGroupBody(name)),
    });
    const rows = await db.use(async (c) => [
      await rowsOf(c, scope, name),
      await rowsOf(c, scope, `_RG${name}`),
      await groupRowsOf(c, scope, name),
      await auditOf(c, `prn::/scope:${scope}/stream:${name}`),
      await auditOf(c, `prn::/scope:${scope}/reader-group:${name}`),
      await eventsOf(c, `prn::/scope:${scope}/stream:${name}`),
      await eventsOf(c, `prn::/scope:${scope}/reader-group:${name}`),
    ]);
    if (rows.includes('null')) {
      throw new NotEquivalent(`writes: ${target} left no rows of a kind\n  ${rows.join('\n  ')}`);
    }
    answers.push(
      [created.status, created.body, updated.status, updated.body, group.status, group.body]
        .concat(rows)
        .join('\n')
        .replaceAll(name, '<name>'),
    );
  }
  assertSame('writes (answers and rows)', answers);
}

/**
 * A health tree's shape: its nodes, statuses, readiness and liveness. Its details (figures, and
 * keys that depend on whether a check was served from a cache) are left aside.
 */
function shapeOf(body: string): string {
  return JSON.stringify(JSON.parse(body), (key, value: unknown) =>
    key === 'details' ? undefined : value,
  );
}

/** Asks each server the scenario's request and compares the three answers. */
async function assertReadsEquivalent(servers: Servers, scenario: Scenario): Promise<void> {
  const { path } = scenario.requests('service')();
  const answers = await Promise.all(
    TARGETS.map(async (t) => {
      const { status, body, link } = await text(`${servers[t].baseUrl}${path}`);
      const shown = status === 200 && scenario.compare === 'shape' ? shapeOf(body) : body;
      return `${status} ${link === null ? '' : `Link: ${link} `}${shown}`;
    }),
  );
  if (!answers[0].startsWith('200 ')) throw new NotEquivalent(`${scenario.name}: ${answers[0]}`);
  assertSame(scenario.name, answers);
}

async function runScenario(servers: Servers, scenario: Scenario): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    name: scenario.name,
    title: scenario.title,
    connections: scenario.connections ?? connections,
    loadavg: loadavg()[0],
    results: {},
  };
  await scenario.prepare?.(servers.service.baseUrl);
  if (scenario.compare) await assertReadsEquivalent(servers, scenario);
  for (const target of TARGETS) {
    const result = await measure(
      servers[target].baseUrl,
      scenario.requests(target),
      servers[target].pid,
      {
        ...load,
        seconds: Math.max(load.seconds, scenario.minSeconds ?? 0),
        connections: report.connections,
      },
    );
    report.results[target] = result;
    if (result.failures > 0) {
      (report.notes ??= []).push(
        `${target}: ${result.failures} failed requests ${JSON.stringify(result.statusCodes)}`,
      );
    }
  }
  const figures = TARGETS.map((t) => {
    const r = report.results[t]!;
    return (
      `${t} ${r.cpuMicrosPerRequest.toFixed(0)} µs CPU/req, ${r.requestsPerSecond.toFixed(0)} req/s ` +
      `(p50 ${r.latency.p50.toFixed(2)} ms, p99 ${r.latency.p99.toFixed(2)} ms, ` +
      `peak RSS ${r.peakRssMb.toFixed(0)} MB)`
    );
  });
  console.log(`${scenario.name}: ${figures.join('; ')}; load ${report.loadavg.toFixed(2)}`);
  report.notes?.forEach((note) => console.log(`  ${note}`));
  console.log(
    `ratio: ${scenario.name} CPU nest-floor/service ${cpuRatio(report, 'nest')?.toFixed(2)}, ` +
      `node-floor/service ${cpuRatio(report, 'node')?.toFixed(2)}`,
  );
  return report;
}

/** Compiles each server's hot paths before the first measure: a mix of the small reads. */
async function warmUp(servers: Servers): Promise<void> {
  const reads = SCENARIOS.filter((s) => s.phase === 'small').map((s) => s.requests('service'));
  for (const target of TARGETS) {
    let i = 0;
    const next = (): RequestSpec => reads[i++ % reads.length]();
    await drive(servers[target].baseUrl, next, connections, WARM_UP_SECONDS);
  }
}

/**
 * After a bulk load: statistics, hint bits and visibility map set (VACUUM ANALYZE), and the
 * dirty pages written (CHECKPOINT, where allowed), so that no scenario pays for the load.
 */
async function settle(c: Client): Promise<void> {
  await c.query('VACUUM (ANALYZE)');
  await c.query('CHECKPOINT').catch(() => undefined);
}

/** The reader group the reads get, made through the service as a client would. */
async function seedReaderGroup(service: ServiceProcess): Promise<void> {
  const { scope, name, streams, readers } = DATA.readerGroup;
  const base = `${service.baseUrl}${readerGroupsOf(scope)}`;
  const created = await text(base, {
    method: 'POST',
    body: JSON.stringify({ readerGroupName: name, streams }),
  });
  if (created.status !== 201) throw new Error(`reader group: ${created.status} ${created.body}`);
  for (const reader of readers) {
    await text(`${base}/${name}/readers/${reader}`, { method: 'PUT' });
  }
}

async function seedMain(db: BenchDatabase): Promise<void> {
  await db.use(async (c) => {
    await seedStreams(c, DATA.medium.scope, DATA.medium.streams);
    const { scope, stream, epochs, start } = DATA.history;
    await seedHistory(c, scope, stream, epochs, start);
    for (const target of TARGETS) {
      await seedStreams(c, updatesScope(target), DATA.updates.streams);
      await c.query(`INSERT INTO scopes (name) VALUES ($1)`, [writesScope(target)]);
    }
    await settle(c);
  });
}

async function seedLarge(db: BenchDatabase): Promise<void> {
  await db.use(async (c) => {
    await seedStreams(c, DATA.large.scope, DATA.large.streams);
    await settle(c);
  });
}

const version = (pkg: string): string =>
  (
    JSON.parse(
      readFileSync(join(__dirname, '..', 'node_modules', pkg, 'package.json'), 'utf8'),
    ) as { version: string }
  ).version;

/** CPU per request of the last page of 100,000 streams over the first: keyset paging is flat. */
function pageCost(reports: ScenarioReport[], target: Target): number | undefined {
  const cpu = (name: string) =>
    cpuOf(
      reports.find((r) => r.name === name && !r.skipped),
      target,
    );
  const [first, last] = [cpu('list-page-first'), cpu('list-page-last')];
  return first !== undefined && last !== undefined ? last / first : undefined;
}

/**
 * The targets, each against its reference: the bar the service must meet now, and where a
 * longer-term goal is stricter, that goal beside it.
 */
function goals(reports: ScenarioReport[], dataSizeRatio?: number): Goal[] {
  const find = (name: string) => reports.find((r) => r.name === name && !r.skipped);
  const judged = (what: string, value: number | undefined, goal: string, met: boolean) => ({
    what,
    value,
    goal,
    met: value === undefined ? undefined : met,
  });
  const beside = (goal?: number) => (goal === undefined ? '' : ` (goal ${goal})`);
  const atMost = (names: string[], group: string, target: number, goal?: number): Goal[] =>
    names.map((name) => {
      const report = find(name);
      const [service, nest] = [cpuOf(report, 'service'), cpuOf(report, 'nest')];
      const value = service !== undefined && nest !== undefined ? service / nest : undefined;
      const what = `${group} ${name} CPU service/nest-floor`;
      return judged(what, value, `<= ${target}${beside(goal)}`, value! <= target);
    });
  const atLeast = (names: string[], group: string, target: number, goal?: number): Goal[] =>
    names.map((name) => {
      const report = find(name);
      const value = report && cpuRatio(report, 'node');
      const what = `${group} ${name} CPU node-floor/service`;
      return judged(what, value, `>= ${target}${beside(goal)}`, value! >= target);
    });
  const flat = (names: string[], target: number): Goal[] =>
    names.map((name) => {
      const value = find(name)?.results.service?.peakRssMb;
      const what = `big-answers ${name} service peak RSS MB`;
      return judged(what, value, `< ${target}`, value! < target);
    });
  return [
    ...atMost(
      ['get-scope', 'get-stream', 'scaling-events-narrow', 'get-reader-group'],
      'small-reads',
      1.6,
      1.3,
    ),
    ...atLeast(['health', 'readyz'], 'probe-storm', 0.35, 0.5),
    ...atLeast(['create-stream', 'update-rescale', 'create-reader-group'], 'writes', 0.45, 0.6),
    ...atLeast(['list-1k', 'list-tag'], 'big-answers', 0.7, 0.9),
    ...atLeast(['list-10k', 'scaling-events-wide'], 'big-answers', 0.9),
    ...flat(['list-100k', 'scaling-events-wide'], 220),
    ...(['service', 'nest', 'node'] as const).map((target) => {
      const value = pageCost(reports, target);
      return judged(
        `list-page-last-vs-first ${target} CPU last/first page of 100,000`,
        value,
        '<= 1.2',
        value! <= 1.2,
      );
    }),
    judged(
      'get-stream-latency p50 100,000/1,000 streams',
      dataSizeRatio,
      '<= 1.2',
      dataSizeRatio! <= 1.2,
    ),
  ];
}

async function main(): Promise<void> {
  const startedAt = new Date();
  if (args.profile) rmSync(PROFILES, { recursive: true, force: true });
  const loadAtStart = loadavg();
  const db = await BenchDatabase.create(
    process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  let servers: Servers | undefined;
  const reports: ScenarioReport[] = [];
  let postgres: string | undefined;
  try {
    servers = await startServers(db.url);
    postgres = await db.use((c) =>
      c
        .query<{ v: string }>("SELECT current_setting('server_version') AS v")
        .then((r) => r.rows[0].v),
    );
    console.log(
      `pids: ${TARGETS.map((t) => `${t} ${servers![t].pid}`).join(', ')}; database ${db.name}; ` +
        `${load.warmupSeconds} s warm-up + ${load.seconds} s per scenario and server`,
    );

    const phase = async (name: Scenario['phase']) => {
      for (const scenario of selected.filter((s) => s.phase === name)) {
        reports.push(await runScenario(servers!, scenario));
      }
    };
    await db.use(async (c) => {
      await seedStreams(c, DATA.small.scope, DATA.small.streams);
      await settle(c);
    });
    await seedReaderGroup(servers.service);
    await warmUp(servers);
    await phase('small');
    // The database grows to 100,000 streams right away: the second get-stream measure then
    // meets each server in the state the first left it, and only the data size differs.
    await seedMain(db);
    await seedLarge(db);
    await phase('large');
    await assertWritesEquivalent(servers, db);
    console.log('writes equivalent (answers and rows, audit included): true');
    await phase('main');
    if (pageCost(reports, 'service') !== undefined) {
      console.log(
        `ratio: list-page-last-vs-first CPU µs/req last/first page: ` +
          TARGETS.map((t) => `${t} ${pageCost(reports, t)?.toFixed(2)}`).join(', '),
      );
    }
  } finally {
    await Promise.all(Object.values(servers ?? {}).map((s) => s.stop()));
    await db.drop();
  }

  /** p50 with 100,000 streams over p50 with 1,000, for one server. */
  const dataSize = (target: Target): number | undefined => {
    const p50 = (name: string) =>
      reports.find((r) => r.name === name)?.results[target]?.latency.p50;
    const [small, large] = [p50('get-stream'), p50('get-stream-100k')];
    return small && large ? large / small : undefined;
  };
  const dataSizeRatio = dataSize('service');
  const targets = goals(reports, dataSizeRatio);
  const loadAtEnd = loadavg();
  console.log(`\n${table(reports)}\n`);
  console.log(
    `(get-stream p50 at 100,000 over 1,000 streams: nest floor ${dataSize('nest')?.toFixed(2)}, ` +
      `node floor ${dataSize('node')?.toFixed(2)})`,
  );
  console.log(`targets:\n${targetLines(targets)}`);
  if (args.profile) {
    for (const target of TARGETS) {
      console.log(`\n${target} profile (${join(PROFILES, target)}):`);
      console.log(summarizeProfiles(join(PROFILES, target)));
    }
  }
  console.log(
    `load average: ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ` +
      `${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at end`,
  );

  mkdirSync(RESULTS, { recursive: true });
  const machine = {
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    postgres,
    nest: version('@nestjs/core'),
    typeorm: version('typeorm'),
    pg: version('pg'),
    autocannon: version('autocannon'),
  };
  writeFileSync(
    join(RESULTS, 'latest.json'),
    `${JSON.stringify(
      {
        startedAt,
        quick: args.quick,
        machine,
        load: { ...load, poolSize: POOL_SIZE, loadavgStart: loadAtStart, loadavgEnd: loadAtEnd },
        scenarios: reports,
        dataSize: {
          getStreamP50Ratio100kVs1k: dataSizeRatio,
          nest: dataSize('nest'),
          node: dataSize('node'),
        },
        targets,
      },
      null,
      2,
    )}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof NotEquivalent ? error.message : error);
  process.exit(1);
});
