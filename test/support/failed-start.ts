import { freePort, ProcessOptions, ServiceProcess } from './service-process';

interface LogLine {
  level: string;
  msg: string;
  stack?: string;
}

/**
 * Starts the built service as a process that is expected to fail, and returns its one fatal
 * line after checking the rest of the promise: exit code 1, that line only, no stack trace, no
 * retry (nothing said about waiting: a failure waiting cannot fix is final at once).
 */
export async function failedStart(
  env: NodeJS.ProcessEnv,
  options: ProcessOptions = {},
): Promise<string> {
  const service = ServiceProcess.start(
    { PORT: String(await freePort()), LOG_FORMAT: 'json', ...env },
    options,
  );
  expect(await service.exited(90_000)).toBe(1);
  const output = service.output.join('');
  expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  const entries = service.lines.map((line) => JSON.parse(line) as LogLine);
  const failures = entries.filter((entry) => ['error', 'fatal'].includes(entry.level));
  expect(failures).toHaveLength(1);
  expect(failures[0]).not.toHaveProperty('stack');
  expect(failures[0].msg).toMatch(/^cannot start: /);
  expect(entries.filter((entry) => entry.msg.startsWith('waiting for'))).toEqual([]);
  return failures[0].msg;
}
