import { spawn } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '../../dist/src/cli/main.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Environment beside PATH; nothing else is inherited (no TRIBUTARY_* of the caller). */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed: stdin is a pipe, never a terminal. */
  input?: string;
  timeoutMs?: number;
}

/** The built `tributary` command as a process of its own. */
export function tributary(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** The CLI bound to one service: `--url` first, as a user types it. */
export const cliAt =
  (url: string, extra: string[] = []) =>
  (args: string[], options?: CliOptions): Promise<CliRun> =>
    tributary(['--url', url, ...extra, ...args], options);
