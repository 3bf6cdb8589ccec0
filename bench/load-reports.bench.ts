/**
 * Scaling by load (docs/extensions.md section 11) on a stream of 1,000 segments: the service's
 * CPU per batch of 1,000 reports that scales nothing (every rate below its threshold), and the
 * p99 of a stream's GET (at 100 a second) while such batches arrive at 50 a second, against its
 * p99 idle, measured
 * in the same run. The `ratio:` lines are a batch's CPU over the 20 ms it may cost, and the
 * loaded p99 over the idle one (at most 2).
 *
 *   npm run bench:load [-- --batches 200 --seconds 10]
 *
 * Needs BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), where it
 * creates a database `tributary_bench_*` and drops it at the end.
 */
import { parseArgs } from 'node:util';
import { measure, RequestSource } from './support/load';
import { cpuSeconds } from './support/memory';
import { send, withMeasuredService } from './support/servers';

const { values: args } = parseArgs({
  options: {
    batches: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
  },
});
const SEGMENTS = 1000;
const BATCHES_PER_SECOND = 50;
const BUDGET_MS = 20;
const GETS_PER_SECOND = 100;
const STREAM = '/v1/scopes/loaded/streams/orders';

/** 1,000 reports, one per segment, measured for half an hour, every rate below the thresholds. */
const batch = JSON.stringify({
  reports: Array.from({ length: SEGMENTS }, (_, segment) => ({
    segment,
    since: Date.now() - 30 * 60_000,
    twoMinuteRate: 60,
    fiveMinuteRate: 60,
    tenMinuteRate: 60,
    twentyMinuteRate: 60,
  })),
});

async function main(): Promise<void> {
  await withMeasuredService(async (service) => {
    const base = service.baseUrl;
    await send(base, 'POST', '/v1/scopes', JSON.stringify({ scopeName: 'loaded' }));
    const scalingPolicy = {
      type: 'BY_RATE_IN_EVENTS_PER_SEC',
      targetRate: 100,
      scaleFactor: 2,
      minSegments: SEGMENTS,
    };
    await send(
      base,
      'POST',
      '/v1/scopes/loaded/streams',
      JSON.stringify({ streamName: 'orders', scalingPolicy }),
    );
    const report = () => send(base, 'POST', `${STREAM}/load`, batch);

    // 1. CPU per batch, one at a time, after a warm-up.
    for (let i = 0; i < 20; i++) await report();
    const batches = Number(args.batches);
    const cpuBefore = cpuSeconds(service.pid);
    const started = process.hrtime.bigint();
    for (let i = 0; i < batches; i++) await report();
    const cpuMs = ((cpuSeconds(service.pid) - cpuBefore) * 1000) / batches;
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6 / batches;
    console.log(
      `batch of ${SEGMENTS} reports scaling nothing: ${cpuMs.toFixed(2)} ms CPU of the service, ` +
        `${wallMs.toFixed(2)} ms wall (mean of ${batches})`,
    );
    console.log(`ratio: batch CPU / ${BUDGET_MS} ms budget = ${(cpuMs / BUDGET_MS).toFixed(2)}`);

    // 2. A stream's GET, idle and while batches arrive at 50 a second.
    const get: RequestSource = () => ({ method: 'GET', path: STREAM });
    // At a steady 100 requests/s, far below what the service answers: the latency a reader
    // of the stream sees, not the queue of a saturated server.
    const load = {
      connections: 4,
      warmupSeconds: 2,
      seconds: Number(args.seconds),
      overallRate: GETS_PER_SECOND,
    };
    const idle = await measure(base, get, service.pid, load);
    let sent = 0;
    let failed: Error | undefined;
    const sender = setInterval(() => {
      sent += 1;
      report().catch((error: unknown) => (failed = error as Error));
    }, 1000 / BATCHES_PER_SECOND);
    const loaded = await measure(base, get, service.pid, load).finally(() => clearInterval(sender));
    if (failed) throw failed;
    const p99 = (ms: number) => `${ms.toFixed(2)} ms`;
    console.log(
      `GET of the stream, p99: idle ${p99(idle.latency.p99)} (${Math.round(idle.requestsPerSecond)} ` +
        `requests/s), with ${BATCHES_PER_SECOND} batches/s ${p99(loaded.latency.p99)} ` +
        `(${Math.round(loaded.requestsPerSecond)} requests/s; ${sent} batches sent)`,
    );
    console.log(
      `ratio: GET p99 loaded / idle = ${(loaded.latency.p99 / idle.latency.p99).toFixed(2)}`,
    );
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
