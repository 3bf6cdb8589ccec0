/** The contract's HealthStatus values. */
export enum HealthStatus {
  UP = 'UP',
  STARTING = 'STARTING',
  NEW = 'NEW',
  UNKNOWN = 'UNKNOWN',
  DOWN = 'DOWN',
  FAILED = 'FAILED',
}

/** docs/behaviour.md section 7: the order in which statuses aggregate (lowest wins). */
const RANK: Record<HealthStatus, number> = {
  [HealthStatus.UP]: 3,
  [HealthStatus.STARTING]: 2,
  [HealthStatus.NEW]: 1,
  [HealthStatus.UNKNOWN]: 0,
  [HealthStatus.DOWN]: -1,
  [HealthStatus.FAILED]: -2,
};

/** The lowest of the statuses; UP when there are none. */
export function lowestStatus(statuses: Iterable<HealthStatus>): HealthStatus {
  let lowest = HealthStatus.UP;
  for (const status of statuses) if (RANK[status] < RANK[lowest]) lowest = status;
  return lowest;
}

/** Whether a status still counts as a working process (the reference's liveness rule). */
export const isAlive = (status: HealthStatus): boolean => RANK[status] >= RANK[HealthStatus.NEW];
