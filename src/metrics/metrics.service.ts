import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppConfig } from '../config/app-config';
import { ConnectionPool } from '../database/connection-pool';

/** Why a request failed authentication or authorization (a closed set: it labels a metric). */
export type AuthFailureReason =
  'missing_credentials' | 'invalid_credentials' | 'invalid_token' | 'forbidden';

/**
 * The labels of a request's metrics. `route` is a template, never a raw path; `operation` is
 * the matched handler's (absent when no handler was reached: the series has no such label).
 */
export interface RequestLabels {
  method: string;
  route: string;
  operation?: string;
  status: number;
}

type PoolCounts = Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;

/** The series one set of request labels counts into. */
interface RequestSeries {
  duration: { observe(seconds: number): void };
  count: { inc(): void };
}

/** Seconds: from 5 ms to 10 s, prom-client's defaults, which fit an API backed by SQL. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The service's Prometheus metrics, in a registry of this application's own (so several
 * applications in one process never share or collide). Other parts of the service report
 * through its methods: {@link requestStarted}, {@link authFailed}, {@link rateLimited}; or
 * register metrics of their own in {@link registry}, their state read at each scrape through
 * {@link stateGauge} (the change feed's, readiness).
 */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();

  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template, operation and status',
    labelNames: ['method', 'route', 'operation', 'status'] as const,
    registers: [this.registry],
  });

  private readonly durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its response, in seconds',
    labelNames: ['method', 'route', 'operation', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  private readonly inFlight = new Gauge({
    name: 'http_requests_in_flight',
    help: 'HTTP requests received and not yet answered (scrapes excluded)',
    registers: [this.registry],
  });

  private readonly authFailures = new Counter({
    name: 'tributary_auth_failures_total',
    help: 'Requests refused by authentication (401) or authorization (403), by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly series = new Map<string, RequestSeries>();

  private readonly rateLimitedRequests = new Counter({
    name: 'tributary_rate_limited_total',
    help: 'Requests refused with 429 by a rate limit',
    registers: [this.registry],
  });

  private readonly autoscaleOutcomes = new Counter({
    name: 'tributary_autoscale_outcomes_total',
    help: 'Reports of load taken, and segments swept for silence, by what they did to their segment',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** Whether anything is collected: with METRICS_ENABLED off, nothing scrapes the registry. */
  private readonly enabled: boolean;

  constructor(config: AppConfig, connections: ConnectionPool) {
    this.enabled = config.METRICS_ENABLED;
    if (!this.enabled) return;
    collectDefaultMetrics({ register: this.registry });
    this.poolGauge(
      'tributary_db_pool_connections',
      'Connections open in the pool',
      connections,
      (pool) => pool.totalCount,
    );
    this.poolGauge(
      'tributary_db_pool_idle_connections',
      'Connections open in the pool and idle',
      connections,
      (pool) => pool.idleCount,
    );
    this.poolGauge(
      'tributary_db_pool_waiting_requests',
      'Queries waiting for a connection of the pool',
      connections,
      (pool) => pool.waitingCount,
    );
    new Gauge({
      name: 'tributary_db_pool_max_connections',
      help: 'Most connections the pool opens (DB_POOL_SIZE)',
      registers: [this.registry],
    }).set(config.DB_POOL_SIZE);
  }

  /** Call when a request arrives; call the function it returns once with its labels when it ends. */
  requestStarted(): (labels: RequestLabels) => void {
    this.inFlight.inc();
    const startedAt = process.hrtime.bigint();
    return (labels) => {
      this.inFlight.dec();
      const { duration, count } = this.seriesOf(labels);
      duration.observe(Number(process.hrtime.bigint() - startedAt) / 1e9);
      count.inc();
    };
  }

  /**
   * The duration and count series of a set of labels, looked up once and kept: the labels are
   * templates and statuses, a small set, and finding a series by its labels costs more than
   * the observation itself.
   */
  private seriesOf({ method, route, operation, status }: RequestLabels): RequestSeries {
    const key = `${method} ${route} ${operation ?? ''} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = operation
        ? { method, route, operation, status: String(status) }
        : { method, route, status: String(status) };
      series = { duration: this.durations.labels(labels), count: this.requests.labels(labels) };
      this.series.set(key, series);
    }
    return series;
  }

  /** A request refused with 401 or 403. */
  authFailed(reason: AuthFailureReason): void {
    this.authFailures.inc({ reason });
  }

  /** What reports of load (or a sweep of silence) did, one outcome each; dry runs are not told. */
  loadOutcomes(outcomes: readonly string[]): void {
    for (const outcome of outcomes) this.autoscaleOutcomes.inc({ outcome });
  }

  /** A request refused with 429. */
  rateLimited(): void {
    this.rateLimitedRequests.inc();
  }

  /** Every metric in Prometheus' text format; the pool gauges are read now. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  onModuleDestroy(): void {
    this.registry.clear();
  }

  /**
   * A gauge of state that another part of the service holds (open streams, the last readiness),
   * read by `read` at each scrape rather than kept up to date by every change; none when
   * metrics are off.
   */
  stateGauge(name: string, help: string, read: () => number | Promise<number>): void {
    if (!this.enabled) return;
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** A gauge read from the `pg` pool TypeORM opened, at each scrape (0 while there is none). */
  private poolGauge(
    name: string,
    help: string,
    connections: ConnectionPool,
    read: (pool: PoolCounts) => number,
  ): void {
    this.stateGauge(name, help, () => {
      const pool = connections.pool;
      return pool ? read(pool) : 0;
    });
  }
}
