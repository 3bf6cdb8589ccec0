import type { LoadResult } from './load';

export interface ScenarioReport {
  name: string;
  title: string;
  connections: number;
  /** Why it did not run, when it did not. */
  skipped?: string;
  /** Whether both servers answered the same bytes (reads) or wrote the same rows (writes). */
  equivalent?: boolean;
  service?: LoadResult;
  floor?: LoadResult;
  /** Service requests/s over the floor's. */
  ratio?: number;
  /** 1-minute load average when the scenario started. */
  loadavg: number;
  notes?: string[];
}

/** A goal of issue 6, checked against the figures of a run. */
export interface Target {
  what: string;
  value?: number;
  goal: string;
  met?: boolean;
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined ? '-' : value.toFixed(digits);

const latency = (result?: LoadResult) =>
  result ? `${fixed(result.latency.p50, 2)} / ${fixed(result.latency.p99, 2)}` : '-';

/** The results as a Markdown table (it reads as plain text in a terminal too). */
export function table(scenarios: ScenarioReport[]): string {
  const rows = [
    [
      'scenario',
      'conns',
      'service req/s',
      'floor req/s',
      'ratio',
      'service p50 / p99 ms',
      'floor p50 / p99 ms',
      'CPU µs/req service / floor',
      'service peak RSS MB',
      'load',
    ],
    ...scenarios.map((s) =>
      s.skipped
        ? [s.name, String(s.connections), 'skipped', '', '', '', '', '', '', fixed(s.loadavg, 2)]
        : [
            s.name,
            String(s.connections),
            fixed(s.service?.requestsPerSecond, 0),
            fixed(s.floor?.requestsPerSecond, 0),
            fixed(s.ratio, 2),
            latency(s.service),
            latency(s.floor),
            `${fixed(s.service?.cpuMicrosPerRequest, 0)} / ${fixed(s.floor?.cpuMicrosPerRequest, 0)}`,
            fixed(s.service?.peakRssMb, 0),
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

export function targetLines(targets: Target[]): string {
  return targets
    .map((t) => {
      const verdict = t.met === undefined ? 'not measured' : t.met ? 'met' : 'NOT met';
      return `  ${verdict.padEnd(12)} ${t.what}: ${fixed(t.value, 2)} (goal ${t.goal})`;
    })
    .join('\n');
}
