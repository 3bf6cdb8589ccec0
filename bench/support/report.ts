import type { Target as Server } from '../scenarios';
import type { LoadResult } from './load';

export interface ScenarioReport {
  name: string;
  title: string;
  connections: number;
  /** Why it did not run, when it did not. */
  skipped?: string;
  /** Each server's figures; for a server measured in rounds, their medians (`medianOfRounds`). */
  results: Partial<Record<Server, LoadResult>>;
  /** Each round of the servers measured more than once (`--rounds`, `--baseline`). */
  rounds?: Partial<Record<Server, LoadResult[]>>;
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

/** The service's CPU per request over the baseline's: 1 is as cheap as the other build. */
export function abRatio(report: ScenarioReport): number | undefined {
  const [service, baseline] = [cpuOf(report, 'service'), cpuOf(report, 'baseline')];
  return service !== undefined && baseline !== undefined ? service / baseline : undefined;
}

/**
 * The `ab:` line of a scenario measured on the service and the baseline: the ratio of their
 * median CPU per request, each median with its rounds, and each one's highest peak RSS.
 */
export function abLine(report: ScenarioReport): string | undefined {
  const ratio = abRatio(report);
  if (ratio === undefined) return undefined;
  const side = (server: 'service' | 'baseline') => {
    const rounds = report.rounds?.[server] ?? [report.results[server]!];
    const each = rounds.map((r) => fixed(r.cpuMicrosPerRequest, 0)).join(', ');
    return `${server} ${fixed(cpuOf(report, server), 0)} µs [${each}]`;
  };
  const rss = (server: 'service' | 'baseline') => fixed(report.results[server]?.peakRssMb, 0);
  return (
    `ab: ${report.name} CPU service/baseline ${ratio.toFixed(2)} ` +
    `(${side('service')}, ${side('baseline')}), ` +
    `peak RSS service/baseline ${rss('service')}/${rss('baseline')} MB`
  );
}

/**
 * The results as a Markdown table (it reads as plain text in a terminal too): CPU per request
 * first, the steady figure, then the ratios of the two references over the service (and with a
 * baseline, the service over it), then requests/s, latencies and peak RSS of every server.
 */
export function table(scenarios: ScenarioReport[]): string {
  const withBaseline = scenarios.some((s) => s.results.baseline !== undefined);
  const servers: Server[] = withBaseline
    ? ['service', 'baseline', 'nest', 'node']
    : ['service', 'nest', 'node'];
  const names = servers.join(' / ');
  const each = (s: ScenarioReport, value: (r: LoadResult) => string) =>
    servers
      .map((server) => {
        const result = s.results[server];
        return result ? value(result) : '-';
      })
      .join(' / ');
  const ab = (cell: string) => (withBaseline ? [cell] : []);
  const rows = [
    [
      'scenario',
      'conns',
      `CPU µs/req ${names}`,
      ...ab('service/baseline'),
      'nest/service',
      'node/service',
      `req/s ${names}`,
      `p50 ms ${names}`,
      `p99 ms ${names}`,
      `peak RSS MB ${names}`,
      'load',
    ],
    ...scenarios.map((s) =>
      s.skipped
        ? [
            s.name,
            String(s.connections),
            'skipped',
            ...ab(''),
            '',
            '',
            '',
            '',
            '',
            '',
            fixed(s.loadavg, 2),
          ]
        : [
            s.name,
            String(s.connections),
            each(s, (r) => fixed(r.cpuMicrosPerRequest, 0)),
            ...ab(fixed(abRatio(s), 2)),
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
