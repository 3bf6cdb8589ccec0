import { isAlive, lowestStatus, HealthStatus } from './health-status';

/** What one health contributor says about itself, before aggregation. */
export interface HealthReport {
  status: HealthStatus;
  details: Record<string, string>;
  /**
   * Whether a failure here means this process is broken (memory, event loop), and so not
   * alive. A failed dependency (the database) makes the service not ready, never dead.
   */
  vital: boolean;
  children?: Record<string, HealthReport>;
}

/** The contract's HealthResult, aggregated. */
export interface HealthNode {
  name: string;
  status: HealthStatus;
  readiness: boolean;
  liveness: boolean;
  details: Record<string, string>;
  children: Record<string, HealthNode>;
}

/** A {@link HealthNode} as a caller sees it: without details, for one not allowed them. */
export interface HealthView extends Omit<HealthNode, 'details' | 'children'> {
  details?: Record<string, string>;
  children: Record<string, HealthView>;
}

/** The tree below `node` with its statuses and no details, anywhere in it. */
export function withoutDetails({ details: _details, children, ...node }: HealthNode): HealthView {
  return {
    ...node,
    children: Object.fromEntries(
      Object.entries(children).map(([key, child]) => [key, withoutDetails(child)]),
    ),
  };
}

/**
 * A contributor takes the lowest of its own and its children's status; it is ready when that
 * is UP, and alive when neither it nor any child is a vital part that stopped working.
 */
export function aggregate(name: string, report: HealthReport): HealthNode {
  const children = Object.fromEntries(
    Object.entries(report.children ?? {}).map(([key, child]) => [key, aggregate(key, child)]),
  );
  const nodes = Object.values(children);
  const status = lowestStatus([report.status, ...nodes.map((node) => node.status)]);
  return {
    name,
    status,
    readiness: status === HealthStatus.UP,
    liveness: (!report.vital || isAlive(report.status)) && nodes.every((node) => node.liveness),
    details: report.details,
    children,
  };
}

/** The contributor at `path` (`['memory', 'heap']`) below `root`, if there is one. */
export function findContributor<T extends { children?: Record<string, T> }>(
  root: T,
  path: string[],
): T | undefined {
  let node: T | undefined = root;
  for (const key of path) {
    node =
      node.children !== undefined && Object.hasOwn(node.children, key)
        ? node.children[key]
        : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
