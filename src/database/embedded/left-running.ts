import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Whether a process exists (one of another user's too: signalling it is then refused). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The server a cluster's lock file names, while a process of that id runs. */
export async function lockingServer(clusterDir: string): Promise<number | undefined> {
  const text = await readFile(join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number(text.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

/** What the operating system says of a process: its parent and its command line, if it can. */
export async function processInfo(pid: number): Promise<{ parent?: number; command?: string }> {
  try {
    // Linux: the command ends at the last ')', which a program name may itself contain.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const command = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ');
    return { parent: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), command };
  } catch {
    // Elsewhere (macOS), ps knows; where it does not either, nothing is known.
  }
  try {
    const { stdout } = await run('ps', ['-o', 'ppid=,command=', '-p', String(pid)]);
    const [, parent, command] = /^\s*(\d+)\s+(.*)$/.exec(stdout.trim()) ?? [];
    return parent ? { parent: Number(parent), command } : {};
  } catch {
    return {};
  }
}

/** What a service records once its server is ready: its own process and the server's. */
export interface OwnerRecord {
  service: number;
  server: number;
}

export function parseOwnerRecord(text: string): OwnerRecord | undefined {
  const [service, server] = text.trim().split(/\s+/).map(Number);
  return service > 0 && server > 0 ? { service, server } : undefined;
}

/**
 * The service still running the server `server`, if any. The record its service wrote names
 * it while that service runs and is still its parent: a service that dies leaves its server to
 * the init process (or another reaper), whatever process later gets the service's id. Without
 * a record of this server (its service died before the server was ready), its parent is taken
 * for its service, unless that is the init process.
 */
export function liveOwner(
  server: number,
  record: OwnerRecord | undefined,
  parent: number | undefined,
  alive: (pid: number) => boolean,
): number | undefined {
  if (record?.server === server) {
    const owns = alive(record.service) && (parent === undefined || parent === record.service);
    return owns ? record.service : undefined;
  }
  return parent !== undefined && parent > 1 && alive(parent) ? parent : undefined;
}

/**
 * Waits, for at most `timeoutMs`, until the server `pid` no longer holds the cluster: a server
 * that stops removes its lock file last (and a process that is not this one's child may linger
 * as a zombie until its new parent reaps it).
 */
export async function released(
  clusterDir: string,
  pid: number,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while ((await lockingServer(clusterDir)) === pid) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}
