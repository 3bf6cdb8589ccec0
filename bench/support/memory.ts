import { readFileSync, writeFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses; utime and stime
  // are the 14th and 15th of the whole line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** A field of `/proc/<pid>/status` such as VmRSS or VmHWM, in MiB. */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
    readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  return match ? Number(match[1]) / 1024 : 0;
}

/**
 * The peak resident memory of a process over a stretch of time: its high-water mark is reset
 * at the start (`/proc/<pid>/clear_refs`, Linux) and read at the end; where resetting is not
 * allowed, VmRSS is polled instead.
 */
export class PeakRss {
  private polled = 0;
  private readonly resettable: boolean;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      this.resettable = true;
    } catch {
      this.resettable = false;
    }
    this.timer = setInterval(() => this.poll(), 100);
    this.poll();
  }

  /** Stops watching; the peak in MiB. */
  stop(): number {
    clearInterval(this.timer);
    this.poll();
    return this.resettable ? Math.max(this.polled, statusMb(this.pid, 'VmHWM')) : this.polled;
  }

  private poll(): void {
    try {
      this.polled = Math.max(this.polled, statusMb(this.pid, 'VmRSS'));
    } catch {
      // the process is gone; keep what was seen
    }
  }
}
