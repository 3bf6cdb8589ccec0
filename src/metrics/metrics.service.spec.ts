import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { loadConfig } from '../config/app-config';
import { ConnectionPool } from '../database/connection-pool';
import { MetricsService } from './metrics.service';

/** Metrics over `connections` (a pool that TypeORM has not opened yet, by default). */
const metricsWith = (env: NodeJS.ProcessEnv = {}, connections = new ConnectionPool()) =>
  new MetricsService(loadConfig({ DB_POOL_SIZE: '7', ...env }), connections);

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

  it('reads the pool at each scrape: a real `pg` pool, made as TypeORM makes it', async () => {
    // A server that takes connections and never answers: the pool's first connection stays
    // opening, and the next request for one waits.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const connections = new ConnectionPool();
    const metrics = metricsWith({}, connections);
    expect(await valueOf(metrics, 'tributary_db_pool_connections')).toBe(0);
    const pool = new connections.driver.Pool({
      host: '127.0.0.1',
      port: (silent.address() as AddressInfo).port,
      max: 1,
      connectionTimeoutMillis: 10_000,
    });
    const attempts = [pool.connect(), pool.connect()].map((attempt) =>
      attempt.then(
        () => 'connected',
        () => 'refused',
      ),
    );
    try {
      expect(await valueOf(metrics, 'tributary_db_pool_connections')).toBe(1);
      expect(await valueOf(metrics, 'tributary_db_pool_idle_connections')).toBe(0);
      expect(await valueOf(metrics, 'tributary_db_pool_waiting_requests')).toBe(1);
      expect(await valueOf(metrics, 'tributary_db_pool_max_connections')).toBe(7);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      silent.close();
      expect(await Promise.all(attempts)).toEqual(['refused', 'refused']);
    }
  });

  it('reports an empty pool before the data source opened one', async () => {
    expect(await valueOf(metricsWith(), 'tributary_db_pool_connections')).toBe(0);
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

  it('reads a state gauge at each scrape, from what another part of the service holds', async () => {
    const metrics = metricsWith();
    let open = 2;
    metrics.stateGauge('tributary_things_open', 'Things open', () => Promise.resolve(open));
    expect(await metrics.scrape()).toMatch(/^tributary_things_open 2$/m);
    open = 0;
    expect(await valueOf(metrics, 'tributary_things_open')).toBe(0);
  });

  it('collects nothing from the process, the pool or a state gauge when metrics are off', async () => {
    const off = metricsWith({ METRICS_ENABLED: 'false' });
    off.stateGauge('tributary_things_open', 'Things open', () => {
      throw new Error('not read when metrics are off');
    });
    const text = await off.scrape();
    expect(text).not.toMatch(/process_cpu|nodejs_|tributary_db_pool|tributary_things_open/);
  });
});
