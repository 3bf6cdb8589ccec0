import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { MetricsService } from './metrics.service';

const pool = { totalCount: 3, idleCount: 2, waitingCount: 1 };
const dataSource = (master?: object) => ({ driver: { master } }) as unknown as DataSource;

/** `master` is the pg pool behind TypeORM's driver; `null`: none (the data source is closed). */
const metricsWith = (env: NodeJS.ProcessEnv = {}, master: object | null = pool) =>
  new MetricsService(loadConfig({ DB_POOL_SIZE: '7', ...env }), dataSource(master ?? undefined));

async function valueOf(
  metrics: MetricsService,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  return metric?.values.find((sample) =>
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

describe('MetricsService', () => {
  it('counts authentication failures by reason and rate-limited requests', async () => {
    const metrics = metricsWith();
    metrics.authFailed('invalid_credentials');
    metrics.authFailed('invalid_credentials');
    metrics.authFailed('forbidden');
    metrics.rateLimited();

    expect(
      await valueOf(metrics, 'tributary_auth_failures_total', { reason: 'invalid_credentials' }),
    ).toBe(2);
    expect(await valueOf(metrics, 'tributary_auth_failures_total', { reason: 'forbidden' })).toBe(
      1,
    );
    expect(await valueOf(metrics, 'tributary_rate_limited_total')).toBe(1);
    const text = await metrics.scrape();
    expect(text).toContain('tributary_auth_failures_total{reason="invalid_credentials"} 2');
    expect(text).toContain('tributary_rate_limited_total 1');
  });

  it('counts, times and tracks requests in flight', async () => {
    const metrics = metricsWith();
    const first = metrics.requestStarted();
    const second = metrics.requestStarted();
    expect(await valueOf(metrics, 'http_requests_in_flight')).toBe(2);

    first({ method: 'GET', route: '/v1/scopes', operation: 'listScopes', status: 200 });
    second({ method: 'GET', route: '/v1/scopes', operation: 'listScopes', status: 200 });
    expect(await valueOf(metrics, 'http_requests_in_flight')).toBe(0);
    const labels = { method: 'GET', route: '/v1/scopes', operation: 'listScopes', status: '200' };
    expect(await valueOf(metrics, 'http_requests_total', labels)).toBe(2);
    const text = await metrics.scrape();
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/v1/scopes",operation="listScopes",status="200"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v1/scopes",operation="listScopes",status="200"} 2',
    );
  });

  it('leaves the operation label out when no handler was reached', async () => {
    const metrics = metricsWith();
    metrics.requestStarted()({ method: 'GET', route: 'unmatched', status: 404 });
    expect(await metrics.scrape()).toContain(
      'http_requests_total{method="GET",route="unmatched",status="404"} 1',
    );
  });

  it('reads the pool at each scrape', async () => {
    const live = { ...pool };
    const metrics = metricsWith({}, live);
    expect(await valueOf(metrics, 'tributary_db_pool_connections')).toBe(3);
    live.totalCount = 5;
    live.waitingCount = 4;
    expect(await valueOf(metrics, 'tributary_db_pool_connections')).toBe(5);
    expect(await valueOf(metrics, 'tributary_db_pool_idle_connections')).toBe(2);
    expect(await valueOf(metrics, 'tributary_db_pool_waiting_requests')).toBe(4);
    expect(await valueOf(metrics, 'tributary_db_pool_max_connections')).toBe(7);
  });

  it('reports an empty pool when the data source has none (closed)', async () => {
    expect(await valueOf(metricsWith({}, null), 'tributary_db_pool_connections')).toBe(0);
  });

  it('adds the process metrics, in a registry of its own per instance', async () => {
    const one = metricsWith();
    const other = metricsWith();
    one.rateLimited();
    expect(await valueOf(other, 'tributary_rate_limited_total')).toBe(0);
    const text = await one.scrape();
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('collects nothing from the process or the pool when metrics are off', async () => {
    const text = await metricsWith({ METRICS_ENABLED: 'false' }).scrape();
    expect(text).not.toMatch(/process_cpu|nodejs_|tributary_db_pool/);
  });
});
