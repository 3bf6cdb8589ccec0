import { Propagation } from '@nestjs-cls/transactional';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { PeriodicTask } from '../database/periodic-task';
import { LoadReportsService } from './load-reports.service';
import { SegmentLoadsRepository } from './segment-loads.repository';

/** Any constant shared by every instance; it names the lock that one sweep at a time holds. */
export const SWEEP_LOCK = 7_404_100_002;

const LOGGER = new Logger('ScalingByLoad');

/** The most streams one sweep scales; the rest wait for the next. */
const STREAMS_PER_SWEEP = 100;

/**
 * The silence of scaling by load (docs/extensions.md section 11): every AUTOSCALE_SWEEP_MS, one
 * instance at a time finds the active segments of reported streams that no report has named for
 * AUTOSCALE_SILENCE_MS, and runs the down rule for each as for a cold one, without mutes. One
 * at a time: the sweep holds a transaction-level advisory lock while it works, which a
 * transaction pooler keeps on one server connection (a session-level lock it would not); the
 * other instances' sweeps find it taken and skip their turn. Each stream is scaled in a
 * transaction of its own under its row lock, where its silence is read again.
 */
@Injectable()
export class SilenceSweep extends PeriodicTask {
  constructor(
    @InjectDb() private readonly db: Db,
    config: AppConfig,
    private readonly loads: SegmentLoadsRepository,
    private readonly reports: LoadReportsService,
  ) {
    super({
      what: 'the sweep of silence',
      intervalMs: config.AUTOSCALE_SWEEP_MS,
      logger: LOGGER,
    });
  }

  protected pass(): Promise<boolean> {
    return this.sweep();
  }

  /** One sweep; false when another instance's holds the lock. */
  sweep(): Promise<boolean> {
    return this.db.withTransaction(Propagation.RequiresNew, async () => {
      // The lock's transaction waits while the streams' own transactions scale them.
      await this.loads.holdIdle();
      if (!(await this.loads.tryLock(SWEEP_LOCK))) return false;
      const now = Date.now();
      const silent = await this.loads.silent(this.reports.silentBefore(now), STREAMS_PER_SWEEP);
      for (const { scope, stream } of silent) {
        await this.db
          .withTransaction(Propagation.RequiresNew, () => this.reports.silence(scope, stream, now))
          .catch((error: unknown) =>
            LOGGER.warn(`scaling ${scope}/${stream} by silence failed: ${String(error)}`),
          );
      }
      return true;
    });
  }
}
