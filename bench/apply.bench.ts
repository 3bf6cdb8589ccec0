/**
 * Declarative apply of a document of STREAMS streams (in 10 scopes, with a reader group each):
 * the dry run, the apply, a re-apply that is all `unchanged`, and an apply that updates (and
 * rescales) every stream. For each: wall time, the service's CPU time, and the transaction's
 * duration from its first to its last audit row. A re-apply's dry run is the baseline of the
 * `ratio:` lines (planning cost without writes), measured in the same run.
 *
 *   npm run bench:apply [-- --streams 1000]
 *
 * Needs DATABASE_URL (an empty database: it is used as is), else uses the service's embedded
 * PostgreSQL in a temporary directory (the transaction's duration is then not read).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { cpuSeconds } from './support/memory';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

const SCOPES = 10;

function documentOf(streams: number, minSegments: number): object {
  const perScope = Math.ceil(streams / SCOPES);
  return {
    scopes: Array.from({ length: SCOPES }, (_, s) => ({
      scopeName: `apply-bench-${s}`,
      streams: Array.from({ length: perScope }, (_, i) => ({
        streamName: `stream-${String(i).padStart(5, '0')}`,
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
        retentionPolicy: { type: 'LIMITED_DAYS', value: 7 },
        streamTags: ['bench'],
      })),
      readerGroups: [{ readerGroupName: 'all', streams: ['stream-00000'] }],
    })),
  };
}

interface Step {
  name: string;
  wallMs: number;
  cpuMs: number;
  transactionMs?: number;
  summary: Record<string, number>;
}

async function main(): Promise<void> {
  const streams = arg('streams', 1000);
  const dataDir = await mkdtemp(join(tmpdir(), 'tributary-bench-'));
  const env: NodeJS.ProcessEnv = { PORT: String(await freePort()), DATA_DIR: dataDir };
  env.LOG_LEVEL = 'warn';
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const service = ServiceProcess.start(env);
  const client = databaseUrl ? new Client({ connectionString: databaseUrl }) : undefined;
  try {
    await service.ready();
    await client?.connect();

    const step = async (name: string, document: object, dryRun: boolean): Promise<Step> => {
      const cpuBefore = cpuSeconds(service.pid);
      const started = process.hrtime.bigint();
      const res = await fetch(`${service.baseUrl}/v1/apply${dryRun ? '?dryRun=true' : ''}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(document),
      });
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const body = (await res.json()) as { summary: Record<string, number> };
      if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
      const cpuMs = (cpuSeconds(service.pid) - cpuBefore) * 1000;
      let transactionMs: number | undefined;
      if (client && !dryRun) {
        const span = await client.query<{ ms: number | null }>(
          `SELECT (extract(epoch FROM max(at) - min(at)) * 1000)::float8 AS ms
             FROM audit_events WHERE request_id = $1`,
          [res.headers.get('x-request-id')],
        );
        transactionMs = span.rows[0].ms ?? undefined;
      }
      return { name, wallMs, cpuMs, transactionMs, summary: body.summary };
    };

    const created = documentOf(streams, 1);
    const updated = documentOf(streams, 2);
    const steps = [
      await step('dry run (all create)', created, true),
      await step('apply (all create)', created, false),
      await step('dry run (all unchanged)', created, true),
      await step('re-apply (all unchanged)', created, false),
      await step('dry run (every stream updated)', updated, true),
      await step('apply (every stream updated, rescaled)', updated, false),
    ];

    console.log(
      `declarative apply, ${streams} streams in ${SCOPES} scopes (+ a reader group each)`,
    );
    console.log('| step | wall ms | service CPU ms | transaction ms | create/update/unchanged |');
    console.log('|---|--:|--:|--:|---|');
    for (const s of steps) {
      const counts = `${s.summary.create}/${s.summary.update}/${s.summary.unchanged}`;
      const tx = s.transactionMs === undefined ? '' : s.transactionMs.toFixed(0);
      console.log(
        `| ${s.name} | ${s.wallMs.toFixed(0)} | ${s.cpuMs.toFixed(0)} | ${tx} | ${counts} |`,
      );
    }
    const baseline = steps[2];
    for (const s of [steps[1], steps[3], steps[5]]) {
      const ratio = (s.wallMs / baseline.wallMs).toFixed(2);
      console.log(
        `ratio: apply-${s.name.replace(/\W+/g, '-').replace(/-$/, '')}-vs-unchanged-dry-run ${ratio}`,
      );
    }
  } finally {
    await client?.end();
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
