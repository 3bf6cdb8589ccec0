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
 *   npm run bench -- --profile    # also writes CPU profiles of each server (bench/results/profiles)
 *   npm run bench -- --only get-stream,list-10k
 *
 * An A/B against another build of the service: `--baseline DIR`, a checkout of another commit
 * with its service built (`DIR/dist/src/main.js`), runs as a fourth server, `baseline`, on the
 * same database and data; each scenario then measures the service and the baseline in turn
 * `--rounds` times (3 by default; service first), the floors once, and prints an `ab:` line of
 * their median CPU per request. `--rounds N` without a baseline measures the service N times.
 *
 *   npm run bench -- --baseline ../main-before --only get-scope,create-stream
 *
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * where it may create a database `tributary_bench_*`, dropped at the end. Checks first that the
 * servers answer alike and write the same rows (a difference stops the run), then prints one
 * `ratio:` line per scenario and per target, the table, and writes bench/results/latest.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
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
  TARGETS_WITH_BASELINE,
  updateBody,
  updatesScope,
  writesScope,
} from './scenarios';
import { BenchDatabase, seedHistory, seedStreams } from './support/database';
import {
  drive,
  LoadOptions,
  LoadResult,
  measure,
  medianOfRounds,
  RequestSource,
  RequestSpec,
} from './support/load';
import { summarizeProfiles } from './support/profile-summary';
import { AS_IN_PRODUCTION, YOUNG_GENERATION } from './support/servers';
import {
  abLine,
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
    baseline: { type: 'string' },
    rounds: { type: 'string' },
  },
});

/** The other build's checkout and its built service, when the run is an A/B. */
const baseline =
  args.baseline === undefined
    ? undefined
    : { dir: resolve(args.baseline), main: join(resolve(args.baseline), 'dist/src/main.js') };
if (baseline && !existsSync(baseline.main)) {
  console.error(
    `--baseline ${args.baseline}: no built service at ${baseline.main}; build it there first ` +
      `(npm ci && npm run build)`,
  );
  process.exit(1);
}
/** How many times the service (and the baseline) are measured per scenario, in turn. */
const rounds = Number(args.rounds ?? (baseline ? 3 : 1));
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`--rounds ${args.rounds}: a whole number of at least 1, please`);
  process.exit(1);
}
const targets = baseline ? TARGETS_WITH_BASELINE : TARGETS;
/** Measured `rounds` times in turn; the floors, once each after them. */
const alternated: readonly Target[] = targets.filter((t) => t === 'service' || t === 'baseline');

const load: Omit<LoadOptions, 'connections'> = args.quick
  ? { warmupSeconds: 1, seconds: 3 }
  : { warmupSeconds: 3, seconds: 10 };
/** Before any measure, each server is driven this long over the small reads (JIT, pools). */
const WARM_UP_SECONDS = args.quick ? 4 : 10;
const connections = Number(args.connections);
const only = args.only?.split(',');
const selected = SCENARIOS.filter((s) => !only || only.includes(s.name));

type Floor = Exclude<Target, 'service' | 'baseline'>;
type Servers = Record<'service' | Floor, ServiceProcess> & { baseline?: ServiceProcess };

/** The server of `target`; the baseline's only exists with `--baseline`. */
function serverOf(servers: Servers, target: Target): ServiceProcess {
  const server = servers[target];
  if (!server) throw new Error(`no ${target} server in this run`);
  return server;
}

/** The floors run their TypeScript through ts-node, as this harness does. */
const FLOOR_MAINS: Record<Floor, string> = {
  nest: join(__dirname, 'floor/nest-floor.ts'),
  node: join(__dirname, 'floor/floor-server.ts'),
};

async function startServers(databaseUrl: string): Promise<Servers> {
  const common = { DATABASE_URL: databaseUrl, DB_POOL_SIZE: String(POOL_SIZE) };
  /** The Node options of a server: its young generation, and a CPU profile when asked. */
  const nodeOptions = (name: Target) => [
    ...YOUNG_GENERATION,
    ...(args.profile ? ['--cpu-prof', '--cpu-prof-dir', join(PROFILES, name)] : []),
  ];
  const asInProduction = async () => ({
    ...common,
    PORT: String(await freePort()),
    ...AS_IN_PRODUCTION,
  });
  /** Those started so far, stopped if a later one fails to start. */
  const started: ServiceProcess[] = [];
  const ready = async (server: ServiceProcess) => {
    started.push(server);
    await server.ready();
    return server;
  };
  const floor = async (target: Floor) =>
    ready(
      ServiceProcess.start(
        { ...common, PORT: String(await freePort()) },
        {
          main: FLOOR_MAINS[target],
          execArgv: [
            ...nodeOptions(target),
            '--require',
            require.resolve('ts-node/register/transpile-only'),
          ],
        },
      ),
    );
  try {
    // The service applies its migrations: the tables exist from here on.
    const service = await ready(
      ServiceProcess.start(await asInProduction(), {
        execArgv: nodeOptions('service'),
        stdoutFile: '/dev/null',
      }),
    );
    let other: ServiceProcess | undefined;
    if (baseline) {
      // From its own directory, with its own node_modules; after the service, so that it finds
      // the service's migrations applied. One it added would change the service's schema.
      const before = await migrationNames(databaseUrl);
      other = await ready(
        ServiceProcess.start(await asInProduction(), {
          main: baseline.main,
          cwd: baseline.dir,
          execArgv: nodeOptions('baseline'),
          stdoutFile: '/dev/null',
        }),
      );
      const added = (await migrationNames(databaseUrl)).filter((name) => !before.includes(name));
      if (added.length > 0) {
        throw new NotEquivalent(
          `--baseline: its build applied migrations this one does not have (${added.join(', ')}), ` +
            `so the service would not run on its own schema`,
        );
      }
    }
    return { service, baseline: other, nest: await floor('nest'), node: await floor('node') };
  } catch (error) {
    await Promise.all(started.map((server) => server.stop()));
    throw error;
  }
}

/** The migrations the database has recorded as applied. */
async function migrationNames(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'SELECT name FROM tributary_migrations ORDER BY id',
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
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

/** Stops the run when the servers differ, showing what each answered (in `targets` order). */
function assertSame(what: string, answers: string[]): void {
  if (answers.every((answer) => answer === answers[0])) return;
  // From the first line where any answer differs from the service's.
  const lines = answers.map((answer) => answer.split('\n'));
  const from = lines[0].findIndex((line, i) => lines.some((other) => other[i] !== line));
  const shown = lines
    .map((a, i) => `  ${targets[i]}: ${a.slice(Math.max(from, 0)).join('\n').slice(0, 1200)}`)
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
  for (const target of targets) {
    const name = `check-${target}`;
    const base = `${serverOf(servers, target).baseUrl}/v1/scopes/${scope}/streams`;
    const created = await text(base, {
      method: 'POST',
      body: JSON.stringify({ streamName: name, ...CREATE_BODY }),
    });
    const updated = await text(`${base}/${name}`, {
      method: 'PUT',
      body: JSON.stringify(updateBody(3)),
    });
    const group = await text(`${serverOf(servers, target).baseUrl}${readerGroupsOf(scope)}`, {
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

/** Asks each server the scenario's request and compares their answers. */
async function assertReadsEquivalent(servers: Servers, scenario: Scenario): Promise<void> {
  const { path } = scenario.requests('service')();
  const answers = await Promise.all(
    targets.map(async (t) => {
      const { status, body, link } = await text(`${serverOf(servers, t).baseUrl}${path}`);
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
  // One source per server for all its rounds: writes go on with new names.
  const sources = new Map<Target, RequestSource>(targets.map((t) => [t, scenario.requests(t)]));
  const measured = new Map<Target, LoadResult[]>(targets.map((t) => [t, []]));
  const run = async (target: Target) => {
    const server = serverOf(servers, target);
    const result = await measure(server.baseUrl, sources.get(target)!, server.pid, {
      ...load,
      seconds: Math.max(load.seconds, scenario.minSeconds ?? 0),
      connections: report.connections,
    });
    measured.get(target)!.push(result);
    if (result.failures > 0) {
      const round = measured.get(target)!.length;
      (report.notes ??= []).push(
        `${target}${rounds > 1 && alternated.includes(target) ? ` round ${round}` : ''}: ` +
          `${result.failures} failed requests ${JSON.stringify(result.statusCodes)}`,
      );
    }
  };
  // Service, baseline, service, baseline, ...: then the floors, once.
  for (let round = 0; round < rounds; round++) {
    for (const target of alternated) await run(target);
  }
  for (const target of targets.filter((t) => !alternated.includes(t))) await run(target);
  for (const [target, results] of measured) {
    report.results[target] = medianOfRounds(results);
    if (results.length > 1) (report.rounds ??= {})[target] = results;
  }
  const figures = targets.map((t) => {
    const r = report.results[t]!;
    return (
      `${t} ${r.cpuMicrosPerRequest.toFixed(0)} µs CPU/req, ${r.requestsPerSecond.toFixed(0)} req/s ` +
      `(p50 ${r.latency.p50.toFixed(2)} ms, p99 ${r.latency.p99.toFixed(2)} ms, ` +
      `peak RSS ${r.peakRssMb.toFixed(0)} MB)`
    );
  });
  const medians = rounds > 1 ? ` (${alternated.join(' and ')}: medians of ${rounds} rounds)` : '';
  console.log(
    `${scenario.name}: ${figures.join('; ')}; load ${report.loadavg.toFixed(2)}${medians}`,
  );
  report.notes?.forEach((note) => console.log(`  ${note}`));
  console.log(
    `ratio: ${scenario.name} CPU nest-floor/service ${cpuRatio(report, 'nest')?.toFixed(2)}, ` +
      `node-floor/service ${cpuRatio(report, 'node')?.toFixed(2)}`,
  );
  const ab = abLine(report);
  if (ab) console.log(ab);
  return report;
}

/** Compiles each server's hot paths before the first measure: a mix of the small reads. */
async function warmUp(servers: Servers): Promise<void> {
  const reads = SCENARIOS.filter((s) => s.phase === 'small').map((s) => s.requests('service'));
  for (const target of targets) {
    let i = 0;
    const next = (): RequestSpec => reads[i++ % reads.length]();
    await drive(serverOf(servers, target).baseUrl, next, connections, WARM_UP_SECONDS);
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
    for (const target of targets) {
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

/** The commit checked out in `dir`, when git can tell. */
function commitOf(dir: string): string | undefined {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
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
      `pids: ${targets.map((t) => `${t} ${serverOf(servers!, t).pid}`).join(', ')}; ` +
        `database ${db.name}; ${load.warmupSeconds} s warm-up + ${load.seconds} s per scenario ` +
        `and server${rounds > 1 ? `, ${rounds} rounds of ${alternated.join(' and ')}` : ''}`,
    );
    if (baseline) {
      console.log(
        `baseline: ${baseline.dir} at ${commitOf(baseline.dir) ?? '?'} ` +
          `(the service at ${commitOf(join(__dirname, '..')) ?? '?'}), ${rounds} rounds in turn`,
      );
    }

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
          targets.map((t) => `${t} ${pageCost(reports, t)?.toFixed(2)}`).join(', '),
      );
    }
  } finally {
    await Promise.all(targets.flatMap((t) => servers?.[t] ?? []).map((s) => s.stop()));
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
  const verdicts = goals(reports, dataSizeRatio);
  const loadAtEnd = loadavg();
  console.log(`\n${table(reports)}\n`);
  console.log(
    `(get-stream p50 at 100,000 over 1,000 streams: ` +
      (baseline ? `baseline ${dataSize('baseline')?.toFixed(2)}, ` : '') +
      `nest floor ${dataSize('nest')?.toFixed(2)}, node floor ${dataSize('node')?.toFixed(2)})`,
  );
  console.log(`targets:\n${targetLines(verdicts)}`);
  if (args.profile) {
    for (const target of targets) {
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
        rounds,
        ...(baseline && {
          service: { commit: commitOf(join(__dirname, '..')) },
          baseline: { dir: baseline.dir, commit: commitOf(baseline.dir) },
        }),
        machine,
        load: { ...load, poolSize: POOL_SIZE, loadavgStart: loadAtStart, loadavgEnd: loadAtEnd },
        scenarios: reports,
        dataSize: {
          getStreamP50Ratio100kVs1k: dataSizeRatio,
          ...(baseline && { baseline: dataSize('baseline') }),
          nest: dataSize('nest'),
          node: dataSize('node'),
        },
        targets: verdicts,
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
