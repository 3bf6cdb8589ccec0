import { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';

/**
 * A program a test starts (PgBouncer, Prometheus): what it writes is kept for the message of a
 * failed start, and the temporary directory of its files goes when it stops.
 */
export class ProgramProcess {
  readonly output: string[] = [];

  constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  /**
   * Asks `ready` every 100 ms until it says yes; if the program exits first, or `attempts` go
   * by, stops it and throws with what it wrote.
   */
  async untilReady(name: string, ready: () => Promise<boolean>, attempts: number): Promise<void> {
    for (let attempt = 0; !(await ready()); attempt++) {
      if (this.child.exitCode !== null || attempt > attempts) {
        await this.stop();
        throw new Error(`${name} did not start:\n${this.output.join('')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGTERM (SIGKILL after 10 s), then its directory removed. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = once(this.child, 'exit');
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}
