import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** The closest existing directory at or above `path` (DATA_DIR may not exist yet). */
async function existingAncestor(
  path: string,
): Promise<{ path: string; free: number; total: number }> {
  let current = resolve(path);
  for (;;) {
    try {
      const stats = await statfs(current);
      return { path: current, free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
    } catch (error) {
      const parent = dirname(current);
      if (parent === current) throw error;
      current = parent;
    }
  }
}

/** Free space on the file system that holds the service's data, against a minimum. */
@Injectable()
export class DiskSpaceIndicator {
  constructor(private readonly indicators: HealthIndicatorService) {}

  async check(path: string, minFreeBytes: number) {
    const session = this.indicators.check('disk');
    try {
      const disk = await existingAncestor(path);
      const data = {
        path: disk.path,
        freeBytes: String(disk.free),
        totalBytes: String(disk.total),
        minFreeBytes: String(minFreeBytes),
      };
      return disk.free >= minFreeBytes
        ? session.up(data)
        : session.down({ ...data, message: 'free space is below the minimum' });
    } catch {
      return session.down({ path: resolve(path), message: 'free space cannot be read' });
    }
  }
}
