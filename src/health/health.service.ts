import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, MemoryHealthIndicator } from '@nestjs/terminus';
import { seesHealthDetails } from '../auth/needs';
import { OidcIssuer } from '../auth/oidc/oidc-issuer.service';
import type { Principal } from '../auth/principal';
import { AppConfig } from '../config/app-config';
import { GracefulShutdown } from './graceful-shutdown.service';
import { HealthContributorNotFoundError } from './health.errors';
import { HealthStatus } from './health-status';
import {
  aggregate,
  findContributor,
  HealthNode,
  HealthReport,
  HealthView,
  withoutDetails,
} from './health-tree';
import { OncePerWindow } from './once-per-window';
import { DatabaseIndicator } from './indicators/database.indicator';
import { DiskSpaceIndicator } from './indicators/disk-space.indicator';
import { EventLoopIndicator } from './indicators/event-loop.indicator';
import { reportOf } from './indicator-report';

const MIB = 1024 * 1024;
const ROOT_NAME = 'tributary';

interface Contributor {
  /** A vital contributor failing means this process is not alive (see {@link HealthReport}). */
  vital: boolean;
  report(): Promise<HealthReport>;
}

/**
 * The health tree of the service: one child per Terminus indicator, aggregated. Probes within
 * HEALTH_CACHE_MS share one rendered tree (and wait for the one being computed), so a storm of
 * probes costs one computation per moment, whichever routes it comes through.
 */
@Injectable()
export class HealthService {
  private readonly startedAt = new Date().toISOString();
  private readonly contributors: Record<string, Contributor>;
  /** Every contributor. */
  private readonly wholeTree: OncePerWindow<HealthNode>;
  /** The vital contributors alone: what liveness needs, without waiting for the database. */
  private readonly vitalTree: OncePerWindow<HealthNode>;

  constructor(
    config: AppConfig,
    database: DatabaseIndicator,
    memory: MemoryHealthIndicator,
    disk: DiskSpaceIndicator,
    eventLoop: EventLoopIndicator,
    private readonly shutdown: GracefulShutdown,
    oidc: OidcIssuer,
  ) {
    const from = (
      vital: boolean,
      check: () => PromiseLike<HealthIndicatorResult> | HealthIndicatorResult,
    ) => ({
      vital,
      report: async () => reportOf(await check(), vital),
    });
    this.contributors = {
      database: from(false, () => database.ping()),
      migrations: from(false, () => database.migrations()),
      memory: {
        vital: true,
        report: async () => {
          const usage = process.memoryUsage();
          const limits = {
            heap: config.HEALTH_HEAP_LIMIT_MB * MIB,
            rss: config.HEALTH_RSS_LIMIT_MB * MIB,
          };
          const heap = reportOf(await memory.checkHeap('heap', limits.heap), true);
          const rss = reportOf(await memory.checkRSS('rss', limits.rss), true);
          Object.assign(heap.details, {
            usedBytes: String(usage.heapUsed),
            limitBytes: String(limits.heap),
          });
          Object.assign(rss.details, {
            usedBytes: String(usage.rss),
            limitBytes: String(limits.rss),
          });
          return { status: HealthStatus.UP, details: {}, vital: true, children: { heap, rss } };
        },
      },
      disk: from(false, () => disk.check(config.DATA_DIR, config.HEALTH_DISK_MIN_FREE_MB * MIB)),
      eventLoop: from(true, () => eventLoop.check(config.HEALTH_EVENT_LOOP_LAG_LIMIT_MS)),
      // Bearer tokens' provider (docs/extensions.md section 9): DOWN makes the service not
      // ready, never dead.
      ...(oidc.enabled && {
        oidc: {
          vital: false,
          report: async () => {
            const { up, details } = await oidc.health(config.HEALTH_TIMEOUT_MS);
            return { status: up ? HealthStatus.UP : HealthStatus.DOWN, details, vital: false };
          },
        },
      }),
    };
    this.wholeTree = new OncePerWindow(config.HEALTH_CACHE_MS, () => this.root(() => true));
    this.vitalTree = new OncePerWindow(config.HEALTH_CACHE_MS, () => this.root((c) => c.vital));
  }

  /** The whole tree, or the contributor at `path` (`['memory', 'heap']`). */
  async health(path: string[] = []): Promise<HealthNode> {
    const [first] = path;
    const contributor =
      first !== undefined && Object.hasOwn(this.contributors, first)
        ? this.contributors[first]
        : undefined;
    // A vital contributor is read from the tree that does not wait for the database.
    const tree = await (contributor?.vital ? this.vitalTree : this.wholeTree).get(this.state());
    const node = findContributor(tree, path);
    if (!node) throw new HealthContributorNotFoundError(path);
    return node;
  }

  /**
   * {@link health} as `access` may see it: the details (paths, bytes, migrations) only for
   * callers allowed `/v1/health/details`, or anyone while authentication is off.
   */
  async healthFor(access: Principal | undefined, path: string[] = []): Promise<HealthView> {
    const node = await this.health(path);
    return seesHealthDetails(access) ? node : withoutDetails(node);
  }

  /**
   * Whether this process works. Only vital contributors can make it dead, so the root's
   * liveness never waits for the database.
   */
  async liveness(path: string[] = []): Promise<boolean> {
    if (path.length > 0) return (await this.health(path)).liveness;
    return (await this.vitalTree.get(this.state())).liveness;
  }

  /** A shutdown beginning changes the answer at once, whatever was computed before it. */
  private state(): string {
    return this.shutdown.draining ? 'draining' : 'serving';
  }

  private async root(include: (contributor: Contributor) => boolean): Promise<HealthNode> {
    const entries = Object.entries(this.contributors).filter(([, c]) => include(c));
    const reports = await Promise.all(entries.map(([, c]) => c.report()));
    const draining = this.shutdown.draining;
    return aggregate(ROOT_NAME, {
      status: draining ? HealthStatus.DOWN : HealthStatus.UP,
      details: { state: draining ? 'draining' : 'serving', startedAt: this.startedAt },
      vital: false,
      children: Object.fromEntries(entries.map(([name], i) => [name, reports[i]])),
    });
  }
}
