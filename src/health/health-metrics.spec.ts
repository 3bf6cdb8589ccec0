import { AppConfig } from '../config/app-config';
import { ConnectionPool } from '../database/connection-pool';
import { MetricsService } from '../metrics/metrics.service';
import { HealthMetrics } from './health-metrics';
import { HealthStatus } from './health-status';
import { aggregate, findContributor, HealthNode } from './health-tree';
import type { HealthService } from './health.service';

/** The health tree with its database contributor in state `database`. */
const treeWith = (database: HealthStatus): HealthNode =>
  aggregate('tributary', {
    status: HealthStatus.UP,
    details: {},
    vital: false,
    children: {
      database: { status: database, details: {}, vital: false },
      memory: { status: HealthStatus.UP, details: {}, vital: true },
    },
  });

/** Metrics over a health service whose tree is `current()`, counting the reads of it. */
function metricsOver(current: () => HealthNode) {
  const metrics = new MetricsService(new AppConfig(), new ConnectionPool());
  const reads: string[][] = [];
  const health = {
    health: (path: string[] = []) => {
      reads.push(path);
      return Promise.resolve(findContributor(current(), path)!);
    },
  } as HealthService;
  new HealthMetrics(metrics, health);
  const value = async (name: string) =>
    (await metrics.registry.getSingleMetric(name)!.get()).values[0]?.value;
  return { metrics, reads, value };
}

describe('HealthMetrics', () => {
  it('reports ready and the database up while the health tree says so', async () => {
    const { value } = metricsOver(() => treeWith(HealthStatus.UP));
    expect(await value('tributary_ready')).toBe(1);
    expect(await value('tributary_database_up')).toBe(1);
  });

  it('follows the tree at each scrape: not ready, the database down, and back', async () => {
    let database = HealthStatus.DOWN;
    const { metrics, value } = metricsOver(() => treeWith(database));
    expect(await value('tributary_ready')).toBe(0);
    expect(await value('tributary_database_up')).toBe(0);
    const text = await metrics.scrape();
    expect(text).toMatch(/^tributary_ready 0$/m);
    expect(text).toMatch(/^tributary_database_up 0$/m);
    database = HealthStatus.UP;
    expect(await metrics.scrape()).toMatch(/^tributary_database_up 1$/m);
  });

  it('reads the tree the probes share, the whole and the database, never a check of its own', async () => {
    const { metrics, reads } = metricsOver(() => treeWith(HealthStatus.UP));
    await metrics.scrape();
    expect(reads.sort()).toEqual([[], ['database']]);
  });

  it('adds nothing when metrics are off', async () => {
    const off = new MetricsService(
      Object.assign(new AppConfig(), { METRICS_ENABLED: false }),
      new ConnectionPool(),
    );
    new HealthMetrics(off, { health: () => Promise.reject(new Error('not read')) } as never);
    expect(await off.scrape()).not.toMatch(/tributary_ready|tributary_database_up/);
  });
});
