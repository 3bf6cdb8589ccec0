import { execFile, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { freePort } from '../../src/startup/free-port';
import { installedProgram } from './installed-program';
import { ProgramProcess } from './program-process';

/** The job the rules of deploy/prometheus/alerts.yml and the dashboard select. */
export const SCRAPE_JOB = 'tributary';

/** The program of Debian's `prometheus` package, `name` being `prometheus` or `promtool`. */
export const prometheusProgram = (name: 'prometheus' | 'promtool'): string =>
  installedProgram(name, 'prometheus');

/** What `promtool` said, and whether it succeeded. */
export interface PromtoolRun {
  code: number;
  output: string;
}

/** Runs `promtool` with `args`; a failure is answered, not thrown, so a test can show it. */
export async function promtool(...args: string[]): Promise<PromtoolRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(prometheusProgram('promtool'), args);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** One rule as `/api/v1/rules` reports it. */
export interface LoadedRule {
  name: string;
  query: string;
  health: string;
  lastError?: string;
  lastEvaluation: string;
}

/** What the HTTP API answers: its data, or its error. */
interface ApiAnswer<T> {
  status: 'success' | 'error';
  data: T;
  errorType?: string;
  error?: string;
}

async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/-/ready`)).ok;
  } catch {
    return false;
  }
}

/**
 * A Prometheus server of the test's own: its configuration and storage in a temporary
 * directory, its API on a free port of the loopback, scraping `target` under {@link SCRAPE_JOB}
 * every second and evaluating `ruleFiles` as often.
 */
export class PrometheusServer {
  private constructor(
    private readonly program: ProgramProcess,
    readonly url: string,
  ) {}

  static async start(target: string, ruleFiles: string[]): Promise<PrometheusServer> {
    const program = prometheusProgram('prometheus');
    const dir = await mkdtemp(join(tmpdir(), 'tributary-prometheus-'));
    const config = join(dir, 'prometheus.yml');
    await writeFile(
      config,
      stringify({
        global: { scrape_interval: '1s', evaluation_interval: '1s' },
        rule_files: ruleFiles,
        scrape_configs: [{ job_name: SCRAPE_JOB, static_configs: [{ targets: [target] }] }],
      }),
    );
    const address = `127.0.0.1:${await freePort()}`;
    const child = spawn(
      program,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=${address}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const url = `http://${address}`;
    const running = new ProgramProcess(child, dir);
    await running.untilReady('prometheus', () => isReady(url), 300);
    return new PrometheusServer(running, url);
  }

  /** An instant query: its answer, error included. */
  query(expr: string): Promise<ApiAnswer<{ resultType: string; result: unknown[] }>> {
    return this.api('query', { query: expr });
  }

  /** The series that `selector` selects in what Prometheus stored. */
  async series(selector: string): Promise<Record<string, string>[]> {
    return (await this.api<Record<string, string>[]>('series', { 'match[]': selector })).data;
  }

  /** Every rule loaded, with its health. */
  async rules(): Promise<LoadedRule[]> {
    const answer = await this.api<{ groups: { rules: LoadedRule[] }[] }>('rules', {});
    return answer.data.groups.flatMap((group) => group.rules);
  }

  private async api<T>(path: string, params: Record<string, string>): Promise<ApiAnswer<T>> {
    const res = await fetch(`${this.url}/api/v1/${path}?${new URLSearchParams(params).toString()}`);
    return (await res.json()) as ApiAnswer<T>;
  }

  stop(): Promise<void> {
    return this.program.stop();
  }
}
