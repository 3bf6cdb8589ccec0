import { Injectable } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service';
import { HealthStatus } from './health-status';
import { HealthService } from './health.service';

/**
 * Readiness and the database's reachability as gauges (1 or 0), read at each scrape from the
 * health tree that the probes share: within HEALTH_CACHE_MS a scrape takes the tree a probe
 * computed, and past it computes the one the next probe takes, each query bounded by
 * HEALTH_TIMEOUT_MS. So a scrape costs at most what a probe costs, and reports what `/readyz`
 * answers at that moment (docs/alerting.md).
 */
@Injectable()
export class HealthMetrics {
  constructor(metrics: MetricsService, health: HealthService) {
    metrics.stateGauge(
      'tributary_ready',
      'Whether the service is ready to serve (1) or not (0), as GET /readyz answers',
      async () => Number((await health.health()).readiness),
    );
    metrics.stateGauge(
      'tributary_database_up',
      'Whether the last check reached the database (1) or not (0), as /v1/health/database shows',
      async () => Number((await health.health(['database'])).status === HealthStatus.UP),
    );
  }
}
