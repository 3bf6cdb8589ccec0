import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, MemoryHealthIndicator } from '@nestjs/terminus';
import { AppConfig } from '../config/app-config';
import { GracefulShutdown } from './graceful-shutdown.service';
import { HealthContributorNotFoundError } from './health.errors';
import { HealthStatus } from './health-status';
import { aggregate, findContributor, HealthNode, HealthReport } from './health-tree';
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

/** The health tree of the service: one child per Terminus indicator, aggregated on request. */
@Injectable()
export class HealthService {
  private readonly startedAt = new Date().toISOString();
  private readonly contributors: Record<string, Contributor>;

  constructor(
    config: AppConfig,
    database: DatabaseIndicator,
    memory: MemoryHealthIndicator,
    disk: DiskSpaceIndicator,
    eventLoop: EventLoopIndicator,
    private readonly shutdown: GracefulShutdown,
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
    };
  }

  /** The whole tree, or the contributor at `path` (`['memory', 'heap']`). */
  async health(path: string[] = []): Promise<HealthNode> {
    if (path.length === 0) return aggregate(ROOT_NAME, await this.root(() => true));
    const [first, ...rest] = path;
    const contributor = Object.hasOwn(this.contributors, first)
      ? this.contributors[first]
      : undefined;
    const report = contributor && findContributor(await contributor.report(), rest);
    if (!report) throw new HealthContributorNotFoundError(path);
    return aggregate(path.at(-1)!, report);
  }

  /**
   * Whether this process works. Only vital contributors can make it dead, so the root's
   * liveness never waits for the database.
   */
  async liveness(path: string[] = []): Promise<boolean> {
    if (path.length > 0) return (await this.health(path)).liveness;
    return aggregate(ROOT_NAME, await this.root((c) => c.vital)).liveness;
  }

  private async root(include: (contributor: Contributor) => boolean): Promise<HealthReport> {
    const entries = Object.entries(this.contributors).filter(([, c]) => include(c));
    const reports = await Promise.all(entries.map(([, c]) => c.report()));
    const draining = this.shutdown.draining;
    return {
      status: draining ? HealthStatus.DOWN : HealthStatus.UP,
      details: { state: draining ? 'draining' : 'serving', startedAt: this.startedAt },
      vital: false,
      children: Object.fromEntries(entries.map(([name], i) => [name, reports[i]])),
    };
  }
}
