/**
 * The benchmark of issue 6: the built service against the floor (a minimal node:http + pg
 * server answering the same routes from the same tables), in the same run, on the same data.
 *
 *   npm run bench                 # 3 s warm-up, 10 s measured per scenario and server
 *   npm run bench -- --quick      # 1 s + 3 s: a smoke run
 *   npm run bench -- --profile    # also writes CPU profiles of both (bench/results/profiles)
 *   npm run bench -- --only get-stream,list-10k
 *
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * where it may create a database `tributary_bench_*`, dropped at the end. Prints a table, one
 * `ratio: NAME X.XX` line per scenario (service req/s over the floor's) and writes
 * bench/results/latest.json.
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
  Scenario,
  SCENARIOS,
  Target,
  TARGETS,
  updateBody,
  updatesScope,
  writesScope,
} from './scenarios';
import { BenchDatabase, seedHistory, seedStreams } from './support/database';
import { drive, LoadOptions, LoadResult, measure, RequestSpec } from './support/load';
import { summarizeProfiles } from './support/profile-summary';
import { ScenarioReport, table, Target as Goal, targetLines } from './support/report';

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

async function startServers(databaseUrl: string): Promise<Servers> {
  const common = { DATABASE_URL: databaseUrl, DB_POOL_SIZE: String(POOL_SIZE) };
  const profile = (name: Target) =>
    args.profile ? ['--cpu-prof', '--cpu-prof-dir', join(PROFILES, name)] : [];
  const service = ServiceProcess.start(
    { ...common, PORT: String(await freePort()), LOG_LEVEL: 'warn', NODE_ENV: 'production' },
    { execArgv: profile('service') },
  );
  await service.ready(); // the service applies its migrations: the tables exist from here on
  const floor = ServiceProcess.start(
    { ...common, PORT: String(await freePort()) },
    {
      main: join(__dirname, 'floor/floor-server.ts'),
      execArgv: [
        ...profile('floor'),
        '--require',
        require.resolve('ts-node/register/transpile-only'),
      ],
    },
  );
  await floor.ready();
  return { service, floor };
}

async function text(url: string, init?: RequestInit): Promise<{ status: number; body: string }> {
  const res = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  });
  return { status: res.status, body: await res.text() };
}

/** What a write left in the tables, names and times aside: the same for both servers or not. */
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

/**
 * Creates then rescales a stream on each server with the same bodies: the answers must be the
 * same but for the name, and so must the rows written.
 */
async function writesAreEquivalent(servers: Servers, db: BenchDatabase): Promise<boolean> {
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
    const rows = await db.use((c) => rowsOf(c, scope, name));
    answers.push(
      [created.status, created.body, updated.status, updated.body, rows]
        .join('\n')
        .replaceAll(name, '<name>'),
    );
  }
  if (answers[0] !== answers[1]) console.log(`writes differ:\n${answers.join('\n---\n')}`);
  return answers[0] === answers[1];
}

async function sameBody(servers: Servers, scenario: Scenario): Promise<boolean> {
  const { path } = scenario.requests('service')();
  const [a, b] = await Promise.all(TARGETS.map((t) => text(`${servers[t].baseUrl}${path}`)));
  const same = a.status === 200 && a.status === b.status && a.body === b.body;
  if (!same) {
    console.log(`${scenario.name}: answers differ: ${a.status} vs ${b.status}`);
    console.log(`  service: ${a.body.slice(0, 400)}\n  floor:   ${b.body.slice(0, 400)}`);
  }
  return same;
}

async function runScenario(servers: Servers, scenario: Scenario): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    name: scenario.name,
    title: scenario.title,
    connections: scenario.connections ?? connections,
    loadavg: loadavg()[0],
  };
  const probe = await text(`${servers.service.baseUrl}${scenario.requests('service')().path}`);
  if (scenario.name === 'health' && probe.status === 404) {
    console.log('skipped: no /v1/health');
    return { ...report, skipped: 'skipped: no /v1/health' };
  }
  if (scenario.sameBody) report.equivalent = await sameBody(servers, scenario);
  for (const target of TARGETS) {
    const result = await measure(
      servers[target].baseUrl,
      scenario.requests(target),
      servers[target].pid,
      { ...load, connections: report.connections },
    );
    report[target] = result;
    if (result.failures > 0) {
      (report.notes ??= []).push(
        `${target}: ${result.failures} failed requests ${JSON.stringify(result.statusCodes)}`,
      );
    }
  }
  report.ratio = report.service!.requestsPerSecond / report.floor!.requestsPerSecond;
  const describe = (r: LoadResult) =>
    `${r.requestsPerSecond.toFixed(0)} req/s (p50 ${r.latency.p50.toFixed(2)} ms, ` +
    `p99 ${r.latency.p99.toFixed(2)} ms, ${r.cpuMicrosPerRequest.toFixed(0)} µs CPU/request, ` +
    `peak RSS ${r.peakRssMb.toFixed(0)} MB)`;
  console.log(
    `${scenario.name}: service ${describe(report.service!)}, floor ${describe(report.floor!)}; ` +
      `load ${report.loadavg.toFixed(2)}`,
  );
  console.log(`ratio: ${scenario.name} ${report.ratio.toFixed(2)}`);
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

/** How many user streams the database holds. */
const userStreams = (c: Client) =>
  c
    .query<{ n: number }>(`SELECT count(*)::int AS n FROM streams WHERE name NOT LIKE '\\_%'`)
    .then((r) => r.rows[0].n);

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
    const missing = DATA.large.streams - (await userStreams(c));
    if (missing > 0) await seedStreams(c, DATA.large.scope, missing);
    await settle(c);
  });
}

const version = (pkg: string): string =>
  (
    JSON.parse(
      readFileSync(join(__dirname, '..', 'node_modules', pkg, 'package.json'), 'utf8'),
    ) as { version: string }
  ).version;

function goals(reports: ScenarioReport[], dataSizeRatio?: number): Goal[] {
  const ratio = (name: string) => reports.find((r) => r.name === name && !r.skipped)?.ratio;
  const atLeast = (name: string, goal: number): Goal => {
    const value = ratio(name);
    return {
      what: `${name} / floor`,
      value,
      goal: `>= ${goal}`,
      met: value === undefined ? undefined : value >= goal,
    };
  };
  const rss = reports.flatMap((r) => (r.service ? [r.service.peakRssMb] : []));
  const peak = rss.length ? Math.max(...rss) : undefined;
  return [
    atLeast('get-stream', 0.6),
    atLeast('get-scope', 0.6),
    atLeast('list-10k', 0.5),
    atLeast('list-tag', 0.5),
    atLeast('create-stream', 0.5),
    atLeast('update-rescale', 0.5),
    {
      what: 'get-stream p50 latency, 100,000 / 1,000 streams',
      value: dataSizeRatio,
      goal: '<= 1.2',
      met: dataSizeRatio === undefined ? undefined : dataSizeRatio <= 1.2,
    },
    {
      what: 'service peak RSS under load, MB',
      value: peak,
      goal: '< 250',
      met: peak === undefined ? undefined : peak < 250,
    },
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
  let writesEquivalent: boolean | undefined;
  let postgres: string | undefined;
  try {
    servers = await startServers(db.url);
    postgres = await db.use((c) =>
      c
        .query<{ v: string }>("SELECT current_setting('server_version') AS v")
        .then((r) => r.rows[0].v),
    );
    console.log(
      `service pid ${servers.service.pid}, floor pid ${servers.floor.pid}, database ${db.name}; ` +
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
    await warmUp(servers);
    await phase('small');
    // The database grows to 100,000 streams right away: the second get-stream measure then
    // meets each server in the state the first left it, and only the data size differs.
    await seedMain(db);
    await seedLarge(db);
    await phase('large');
    writesEquivalent = await writesAreEquivalent(servers, db);
    console.log(`writes equivalent (answers and rows): ${writesEquivalent}`);
    await phase('main');
  } finally {
    await Promise.all(Object.values(servers ?? {}).map((s) => s.stop()));
    await db.drop();
  }

  /** p50 with 100,000 streams over p50 with 1,000, for one server. */
  const dataSize = (target: Target): number | undefined => {
    const p50 = (name: string) => reports.find((r) => r.name === name)?.[target]?.latency.p50;
    const [small, large] = [p50('get-stream'), p50('get-stream-100k')];
    return small && large ? large / small : undefined;
  };
  const dataSizeRatio = dataSize('service');
  const floorDataSizeRatio = dataSize('floor');
  if (dataSizeRatio !== undefined && floorDataSizeRatio !== undefined) {
    console.log(`ratio: get-stream-latency-100k-vs-1k ${dataSizeRatio.toFixed(2)}`);
    console.log(`(the floor's: ${floorDataSizeRatio.toFixed(2)})`);
  }
  const targets = goals(reports, dataSizeRatio);
  const loadAtEnd = loadavg();
  console.log(`\n${table(reports)}\n`);
  console.log(`targets (issue 6):\n${targetLines(targets)}`);
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
        writesEquivalent,
        scenarios: reports,
        dataSize: { getStreamP50Ratio100kVs1k: dataSizeRatio, floor: floorDataSizeRatio },
        targets,
      },
      null,
      2,
    )}\n`,
  );
  const inequivalent = reports.filter((r) => r.equivalent === false).map((r) => r.name);
  if (writesEquivalent === false || inequivalent.length > 0) {
    console.error(`the two servers do not answer alike: ${inequivalent.join(', ') || 'writes'}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
