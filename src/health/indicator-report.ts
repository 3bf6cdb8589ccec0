import type { HealthIndicatorResult, HealthIndicatorStatus } from '@nestjs/terminus';
import { HealthStatus } from './health-status';
import { HealthReport } from './health-tree';

/** Terminus's `degraded` still serves: it is UP here, with the indicator's own words. */
const STATUS_OF: Record<HealthIndicatorStatus, HealthStatus> = {
  up: HealthStatus.UP,
  degraded: HealthStatus.UP,
  down: HealthStatus.DOWN,
};

const asDetail = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

/**
 * Maps a Terminus indicator's result (`{ key: { status, ...data } }`) to a health report whose
 * details are the indicator's data as strings (HealthDetails is a map of strings).
 */
export function reportOf(result: HealthIndicatorResult, vital: boolean): HealthReport {
  const [{ status, ...data }] = Object.values(result);
  return {
    status: STATUS_OF[status],
    details: Object.fromEntries(
      Object.entries(data)
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([key, value]) => [key, asDetail(value)]),
    ),
    vital,
  };
}
