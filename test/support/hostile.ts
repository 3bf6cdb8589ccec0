import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { cpuSeconds } from '../../bench/support/memory';
import { createTestDatabase } from './test-database';
import { freePort, ServiceProcess } from './service-process';

/**
 * Support for the hostile-client tests (docs/limits.md): an attack is sent to the built service
 * as its author sent it, while a probe `GET` goes on beside it, so a test can say what the attack
 * cost the service in CPU and memory, next to what a `GET` costs it, and how long it and the
 * `GET`s beside it took (figures for the run's report: wall times swing with the machine's load).
 */

/** What an attack cost, next to what an ordinary `GET` costs on the same service. */
export interface AttackCost<T> {
  value: T;
  /** Wall time of the attack, from its first byte sent to its last answer read. */
  attackMs: number;
  /** Median time of the probe `GET` before the attack (the machine's own pace). */
  idleGetMs: number;
  /** The slowest probe `GET` sent while the attack ran. */
  worstGetMs: number;
  /**
   * The 99th percentile of the probe `GET`s sent while the attack ran: over a long attack, what
   * the service did to others rather than the few stalls a loaded machine gives anyone.
   */
  p99GetMs: number;
  /**
   * The time within which nine in ten probe `GET`s sent while the attack ran were answered: an
   * attack that slows the service slows most of them, where a loaded machine's scheduler now and
   * then delays one (the slowest of a long attack's probes is often that one).
   */
  p90GetMs: number;
  /** How many probe `GET`s were answered while the attack ran. */
  probes: number;
  /**
   * The CPU time, in ms, the service spent on the attack: its CPU time while
   * the attack ran, less what the probe `GET`s beside it cost at their idle rate. Unlike wall
   * time, it does not grow when the machine is busy with other work (see {@link CPU_BUDGET_MS}).
   */
  serviceCpuMs: number;
  /** The CPU time, in ms, one idle probe `GET` cost the service. */
  probeCpuMs: number;
}

/**
 * The CPU an attack may cost the service, in ms. What a request does on one core, it does on the
 * service's one event loop: an attack that costs this little cannot hold up the `GET`s of others
 * for longer. The attacks these tests send cost the old code seconds to minutes each (their
 * comments give the figures); answered as they now are, none cost more than 110 ms in a full
 * run of the suite on two cores.
 */
export const CPU_BUDGET_MS = 500;

/**
 * The CPU each request of a flood may cost the service, in ms: about what a `GET` costs it on
 * two loaded cores (2 to 7 ms), where a regular expression backtracking over a header of
 * 16,000 spaces costs hundreds.
 */
export const REQUEST_CPU_BUDGET_MS = 25;

/** Probe `GET`s sent first and not counted: the first of them compile code. */
const WARM_PROBES = 10;
/** Idle probe `GET`s counted: enough for their CPU time to span several ticks of `/proc`. */
const IDLE_PROBES = 30;
/**
 * The pause between probe `GET`s beside an attack: few enough probes that the CPU they are
 * reckoned to cost (at their idle rate) is a small part of what is measured.
 */
const PROBE_GAP_MS = 20;

/** The value below which `fraction` of `values` lie (the last one for 1). */
const quantile = (values: number[], fraction: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
};
const median = (values: number[]): number => quantile(values, 0.5);

async function timedGet(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status >= 500) throw new Error(`probe GET ${url} answered ${res.status}`);
  return performance.now() - started;
}

/**
 * Runs `attack` while `GET probePath` is sent to `service` one at a time, {@link PROBE_GAP_MS}
 * apart; the probe's idle pace and CPU cost are measured first, with nothing else sent.
 */
export async function beside<T>(
  service: Pick<ServiceProcess, 'baseUrl' | 'pid'>,
  attack: () => Promise<T>,
  { probePath = '/v1/scopes', headers = {} } = {},
): Promise<AttackCost<T>> {
  const url = `${service.baseUrl}${probePath}`;
  const cpuMs = () => cpuSeconds(service.pid) * 1000;
  for (let i = 0; i < WARM_PROBES; i++) await timedGet(url, headers);
  const idle: number[] = [];
  const idleCpuFrom = cpuMs();
  for (let i = 0; i < IDLE_PROBES; i++) idle.push(await timedGet(url, headers));
  const cpuFrom = cpuMs();
  const probeCpuMs = (cpuFrom - idleCpuFrom) / IDLE_PROBES;
  let running = true;
  const during: number[] = [];
  const probing = (async () => {
    while (running) {
      during.push(await timedGet(url, headers));
      await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
    }
  })();
  const started = performance.now();
  let value: T;
  try {
    value = await attack();
  } finally {
    running = false;
  }
  const attackMs = performance.now() - started;
  const attackCpuMs = cpuMs() - cpuFrom;
  await probing;
  return {
    value,
    attackMs,
    idleGetMs: median(idle),
    worstGetMs: Math.max(...during),
    p99GetMs: quantile(during, 0.99),
    p90GetMs: quantile(during, 0.9),
    probes: during.length,
    serviceCpuMs: Math.max(0, attackCpuMs - probeCpuMs * during.length),
    probeCpuMs,
  };
}

/** The resident memory of a process, in MiB, from `/proc` (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!kib) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib[1]) / 1024;
}

/** The largest RSS of `pid` sampled every `everyMs` while `work` runs, in MiB. */
export async function peakRssDuring<T>(
  pid: number,
  work: () => Promise<T>,
  everyMs = 20,
): Promise<{ value: T; peakMiB: number }> {
  let peakMiB = rssMiB(pid);
  const timer = setInterval(() => {
    peakMiB = Math.max(peakMiB, rssMiB(pid));
  }, everyMs);
  try {
    const value = await work();
    return { value, peakMiB: Math.max(peakMiB, rssMiB(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/** The built service on a database of its own, for one test file. */
export async function hostileTarget(
  env: NodeJS.ProcessEnv = {},
): Promise<{ service: ServiceProcess; databaseUrl: string; stop(): Promise<void> }> {
  const database = await createTestDatabase();
  const service = ServiceProcess.start({
    PORT: String(await freePort()),
    DATABASE_URL: database.url,
    ...env,
  });
  try {
    await service.ready();
  } catch (error) {
    await service.stop('SIGKILL');
    await database.drop();
    throw error;
  }
  return {
    service,
    // To look behind the API: what was written, and what it costs the database.
    databaseUrl: database.url,
    stop: async () => {
      await service.stop('SIGKILL');
      await database.drop();
    },
  };
}
