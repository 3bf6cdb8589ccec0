import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { METRICS_PATH } from '../../src/metrics/metrics.controller';
import { basic, writeAccounts } from '../support/accounts';
import { eventually } from '../support/eventually';
import { parseSamples } from '../support/prometheus';
import {
  LoadedRule,
  promtool,
  PrometheusServer,
  prometheusProgram,
  SCRAPE_JOB,
} from '../support/prometheus-server';
import { installedProgram } from '../support/installed-program';
import { freePort, ServiceProcess } from '../support/service-process';
import { createTestDatabase } from '../support/test-database';
import { metricNames, withVariables } from './promql-names';

const DEPLOY = resolve(__dirname, '../../deploy');
const RULES_FILE = join(DEPLOY, 'prometheus/alerts.yml');
const RULES_TESTS = join(DEPLOY, 'prometheus/alerts.test.yml');
const EXAMPLE_CONFIG = join(DEPLOY, 'prometheus/prometheus.yml');
const DASHBOARD = join(DEPLOY, 'grafana/tributary.json');

/** What Prometheus adds to every target itself: not the service's to export. */
const PROMETHEUS_OWN = new Set(['up']);

interface AlertRule {
  alert: string;
  expr: string;
}

interface DashboardPanel {
  title: string;
  targets?: { expr: string }[];
  panels?: DashboardPanel[];
}

interface Dashboard {
  panels: DashboardPanel[];
  templating: { list: { name: string; type: string; query?: { query: string } | string }[] };
}

const alertRules = async (): Promise<AlertRule[]> =>
  (parse(await readFile(RULES_FILE, 'utf8')) as { groups: { rules: AlertRule[] }[] }).groups
    .flatMap((group) => group.rules)
    .filter((rule) => rule.alert !== undefined);

const dashboard = async (): Promise<Dashboard> =>
  JSON.parse(await readFile(DASHBOARD, 'utf8')) as Dashboard;

/** Every query target of the dashboard's panels, rows' panels included, by panel title. */
const panelQueries = (panels: DashboardPanel[]): { title: string; expr: string }[] =>
  panels.flatMap((panel) => [
    ...(panel.targets ?? []).map(({ expr }) => ({ title: panel.title, expr })),
    ...panelQueries(panel.panels ?? []),
  ]);

/** The series selector and label of a variable's `label_values(<selector>, <label>)`. */
const LABEL_VALUES = /^label_values\((.+),\s*(\w+)\)$/;

/**
 * docs/alerting.md: the alert rules and the Grafana dashboard, checked by promtool and by a real
 * Prometheus scraping the built service (`npm run test:observability`).
 */
describe('Alert rules and dashboard (observability)', () => {
  describe('promtool', () => {
    it('checks the alert rules', async () => {
      expect(await promtool('check', 'rules', RULES_FILE)).toEqual({
        code: 0,
        output: expect.stringContaining('SUCCESS'),
      });
    });

    it("passes the rules' unit tests", async () => {
      expect(await promtool('test', 'rules', RULES_TESTS)).toEqual({
        code: 0,
        output: expect.stringContaining('SUCCESS'),
      });
    });

    it('checks the example configuration, with its rule file', async () => {
      expect(await promtool('check', 'config', EXAMPLE_CONFIG)).toEqual({
        code: 0,
        output: expect.stringContaining('SUCCESS: 1 rule files found'),
      });
    });

    it('refuses a rule whose expression does not parse, and says where', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tributary-rules-'));
      try {
        const broken = join(dir, 'broken.yml');
        const rules = (await readFile(RULES_FILE, 'utf8')).replace(
          'up{job="tributary"} == 0',
          'up{job="tributary" == 0',
        );
        await writeFile(broken, rules);
        const run = await promtool('check', 'rules', broken);
        expect(run.code).not.toBe(0);
        expect(run.output).toMatch(/FAILED[\s\S]*unexpected/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('names the package to install when a program is missing', async () => {
      const empty = await mkdtemp(join(tmpdir(), 'tributary-no-programs-'));
      try {
        expect(() => installedProgram('prometheus', 'prometheus', [empty])).toThrow(
          'prometheus is not installed (apt-get install -y prometheus)',
        );
      } finally {
        await rm(empty, { recursive: true, force: true });
      }
      expect(prometheusProgram('prometheus')).toMatch(/\/prometheus$/);
    });
  });

  describe('reading metric names out of PromQL', () => {
    it('finds the selected series, not functions, keywords, labels, numbers or durations', () => {
      expect(
        metricNames(
          'histogram_quantile(0.99, sum by (job, le) (rate(http_request_duration_seconds_bucket' +
            '{job="tributary", operation!="listEvents"}[5m] offset 1m))) > 1e0 and on (job) ' +
            'up == bool 0 or tributary_ready{instance=~"a{1}"} / ignoring (x) group_left (y) ' +
            'tributary_db_pool_max_connections',
        ),
      ).toEqual([
        'http_request_duration_seconds_bucket',
        'up',
        'tributary_ready',
        'tributary_db_pool_max_connections',
      ]);
    });

    it('fills in the variables the dashboard uses, and refuses one it does not know', () => {
      const values = { job: 'tributary', __rate_interval: '1m' };
      expect(withVariables('rate(x{job="$job"}[$__rate_interval])', values)).toBe(
        'rate(x{job="tributary"}[1m])',
      );
      expect(withVariables('x{job="${job}"}', values)).toBe('x{job="tributary"}');
      expect(() => withVariables('x{instance="$instance"}', values)).toThrow(
        'no value for $instance',
      );
    });
  });

  describe('a real Prometheus scraping the built service', () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let service: ServiceProcess;
    let prometheus: PrometheusServer;
    let target: string;
    /** The metric names of the service's own scrape, after the traffic. */
    let exported: Set<string>;

    /** Whether Prometheus evaluates `expr` without error, and what of it the service lacks. */
    const check = async (expr: string) => {
      const answer = await prometheus.query(expr);
      const names = metricNames(expr).filter((name) => !PROMETHEUS_OWN.has(name));
      const stored = await Promise.all(
        names.map(async (name) => ({
          name,
          series: await prometheus.series(`{__name__="${name}", job="${SCRAPE_JOB}"}`),
        })),
      );
      return {
        status: answer.status,
        error: answer.error,
        notExported: names.filter((name) => !exported.has(name)),
        notScraped: stored.filter(({ series }) => series.length === 0).map(({ name }) => name),
      };
    };
    const faultless = { status: 'success', error: undefined, notExported: [], notScraped: [] };

    beforeAll(async () => {
      database = await createTestDatabase();
      const accounts = await writeAccounts({ admin: 'prn::*,READ_UPDATE' });
      const port = await freePort();
      target = `127.0.0.1:${port}`;
      service = ServiceProcess.start({
        PORT: String(port),
        DATABASE_URL: database.url,
        AUTH_ENABLED: 'true',
        AUTH_ACCOUNTS_FILE: accounts,
        AUTH_MAX_FAILURES: '2',
      });
      await service.ready();
      prometheus = await PrometheusServer.start(target, [RULES_FILE]);

      // Traffic that makes every series of the rules and the dashboard: successes, client
      // errors, the change feed, refusals, failed logins and their 429.
      const api = (path: string, init: RequestInit = {}, user = 'admin') =>
        fetch(`${service.baseUrl}${path}`, {
          ...init,
          headers: {
            'Content-Type': 'application/json',
            ...(user && { Authorization: basic(user) }),
            ...init.headers,
          },
        });
      const { position } = (await (await api('/v1/events')).json()) as { position: string };
      expect(
        (await api('/v1/scopes', { method: 'POST', body: '{"scopeName":"sales"}' })).status,
      ).toBe(201);
      expect((await api('/v1/scopes')).status).toBe(200);
      expect((await api('/v1/scopes/missing')).status).toBe(404);
      const page = (await (await api(`/v1/events?since=${position}`)).json()) as { events: [] };
      expect(page.events).toHaveLength(1);
      expect((await api('/readyz', {}, '')).status).toBe(200);
      expect((await api('/v1/scopes', {}, '')).status).toBe(401);
      const wrong = { headers: { Authorization: basic('admin', 'wrong') } };
      const logins = [];
      for (let i = 0; i < 3; i++) logins.push((await api('/v1/scopes', wrong)).status);
      expect(logins).toEqual([401, 401, 429]);

      const scraped = await fetch(`${service.baseUrl}${METRICS_PATH}`);
      exported = new Set(parseSamples(await scraped.text()).map((sample) => sample.name));
      // The 429 came last: once Prometheus has it, it has scraped all of the traffic.
      const limited = async () =>
        (await prometheus.query(`tributary_rate_limited_total{job="${SCRAPE_JOB}"}`)).data.result
          .length;
      expect(await eventually(limited, 1, { attempts: 300 })).toBe(1);
    }, 180_000);

    afterAll(async () => {
      await prometheus?.stop();
      await service?.stop();
      await database?.drop();
    });

    it('scrapes the service: its target is up', async () => {
      const answer = await prometheus.query(`up{job="${SCRAPE_JOB}", instance="${target}"}`);
      expect(answer.data.result).toEqual([
        expect.objectContaining({ value: [expect.any(Number), '1'] }),
      ]);
    });

    it('loads every alert rule, each healthy once evaluated', async () => {
      const alerts = await alertRules();
      const evaluated = (rule: LoadedRule) => !rule.lastEvaluation.startsWith('0001-');
      const loaded = async () => {
        const rules = await prometheus.rules();
        return rules.length === alerts.length && rules.every(evaluated) ? rules : undefined;
      };
      let rules: LoadedRule[] | undefined;
      for (let attempt = 0; attempt < 100 && !(rules = await loaded()); attempt++) {
        await new Promise((done) => setTimeout(done, 100));
      }
      expect(
        (rules ?? (await prometheus.rules())).map(({ name, health, lastError }) => ({
          name,
          health,
          lastError: lastError || undefined,
        })),
      ).toEqual(alerts.map(({ alert }) => ({ name: alert, health: 'ok', lastError: undefined })));
    });

    it('evaluates every alert expression, on series the service exports', async () => {
      const alerts = await alertRules();
      expect(alerts.length).toBeGreaterThan(0);
      const checked = [];
      for (const { alert, expr } of alerts) checked.push({ alert, ...(await check(expr)) });
      expect(checked).toEqual(alerts.map(({ alert }) => ({ alert, ...faultless })));
    });

    it('evaluates every dashboard query, on series the service exports', async () => {
      const values = {
        job: SCRAPE_JOB,
        instance: target,
        __rate_interval: '1m',
        __interval: '15s',
        __range: '1h',
      };
      const queries = panelQueries((await dashboard()).panels);
      expect(queries.length).toBeGreaterThan(0);
      const checked = [];
      for (const { title, expr } of queries) {
        checked.push({ title, ...(await check(withVariables(expr, values))) });
      }
      expect(checked).toEqual(queries.map(({ title }) => ({ title, ...faultless })));
    });

    it("finds values for the dashboard's job and instance variables", async () => {
      const variables = (await dashboard()).templating.list.filter((v) => v.type === 'query');
      expect(variables.map((v) => v.name)).toEqual(['job', 'instance']);
      const found: Record<string, string[]> = {};
      for (const variable of variables) {
        const query = typeof variable.query === 'string' ? variable.query : variable.query!.query;
        const [, selector, label] = LABEL_VALUES.exec(query)!;
        const series = await prometheus.series(withVariables(selector, { job: SCRAPE_JOB }));
        found[variable.name] = [...new Set(series.map((labels) => labels[label]))];
      }
      expect(found).toEqual({ job: [SCRAPE_JOB], instance: [target] });
    });
  });
});
