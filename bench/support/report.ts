import type { Target as Server } from '../scenarios';
import type { LoadResult } from './load';

export interface ScenarioReport {
  name: string;
  title: string;
  connections: number;
  /** Why it did not run, when it did not. */
  skipped?: string;
  results: Partial<Record<Server, LoadResult>>;
  /** 1-minute load average when the scenario started. */
  loadavg: number;
  notes?: string[];
}

/** A target, checked against the figures of a run. */
export interface Target {
  what: string;
  value?: number;
  goal: string;
  met?: boolean;
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined ? '-' : value.toFixed(digits);

/** CPU per request of `server` in a scenario, µs. */
export const cpuOf = (report: ScenarioReport | undefined, server: Server): number | undefined =>
  report?.results[server]?.cpuMicrosPerRequest || undefined;

/** A reference's CPU per request over the service's: 1 is as cheap as the reference. */
export function cpuRatio(report: ScenarioReport, reference: Server): number | undefined {
  const [ref, service] = [cpuOf(report, reference), cpuOf(report, 'service')];
  return ref !== undefined && service !== undefined ? ref / service : undefined;
}

const each = (s: ScenarioReport, value: (r: LoadResult) => string) =>
  (['service', 'nest', 'node'] as const)
    .map((server) => {
      const result = s.results[server];
      return result ? value(result) : '-';
    })
    .join(' / ');

/**
 * The results as a Markdown table (it reads as plain text in a terminal too): CPU per request
 * first, the steady figure, then the ratios of the two references over the service, then
 * requests/s, latencies and peak RSS of the three servers.
 */
export function table(scenarios: ScenarioReport[]): string {
  const rows = [
    [
      'scenario',
      'conns',
      'CPU µs/req service / nest / node',
      'nest/service',
      'node/service',
      'req/s service / nest / node',
      'p50 ms service / nest / node',
      'p99 ms service / nest / node',
      'peak RSS MB service / nest / node',
      'load',
    ],
    ...scenarios.map((s) =>
      s.skipped
        ? [s.name, String(s.connections), 'skipped', '', '', '', '', '', '', fixed(s.loadavg, 2)]
        : [
            s.name,
            String(s.connections),
            each(s, (r) => fixed(r.cpuMicrosPerRequest, 0)),
            fixed(cpuRatio(s, 'nest'), 2),
            fixed(cpuRatio(s, 'node'), 2),
            each(s, (r) => fixed(r.requestsPerSecond, 0)),
            each(s, (r) => fixed(r.latency.p50, 1)),
            each(s, (r) => fixed(r.latency.p99, 1)),
            each(s, (r) => fixed(r.peakRssMb, 0)),
            fixed(s.loadavg, 2),
          ],
    ),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}

/** One `ratio:` line per target: its figure, its goal and whether it is met. */
export function targetLines(targets: Target[]): string {
  return targets
    .map((t) => {
      const verdict = t.met === undefined ? 'not measured' : t.met ? 'met' : 'not met';
      return `ratio: ${t.what} ${fixed(t.value, 2)} (goal ${t.goal}) ${verdict}`;
    })
    .join('\n');
}
