import pino, { DestinationStream, Level, Logger } from 'pino';
import { pinoPretty } from '../common/required-on-first-use';
import { LogFormat, LogLevel } from '../config/app-config';

/** LOG_LEVEL (Nest's names) as pino levels. */
export const PINO_LEVEL: Record<LogLevel, Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** Never written to a log: credentials in headers, and any `password` field (4 levels deep). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  'password',
  '*.password',
  '*.*.password',
  '*.*.*.password',
];

/** JSON for collectors; for a person at a terminal, readable lines. */
export function defaultLogFormat(stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  return stdout.isTTY ? 'pretty' : 'json';
}

/**
 * Written as it happens (synchronously): the process ends by re-raising SIGTERM (or dies), and
 * buffered lines, the last ones of a shutdown among them, would be lost.
 */
function stdout(format: LogFormat): DestinationStream {
  if (format === 'json') return pino.destination({ dest: 1, sync: true });
  return pinoPretty().PinoPretty({
    destination: 1,
    sync: true,
    colorize: process.stdout.isTTY === true && !process.env.NO_COLOR,
    translateTime: 'SYS:HH:MM:ss.l',
    // One line per entry: the request's fields that its message already says are left out;
    // anything else (an error's stack, say) still follows it.
    ignore: 'pid,hostname,context,reqId,method,route,path,status,client,principal,durationMs',
    messageFormat: '{if context}[{context}] {end}{msg}{if durationMs} ({durationMs} ms){end}',
  });
}

/**
 * The service's one logger, on stdout (or on `destination`): a JSON object per line with the
 * level by name and the time in ISO 8601, or the same entries as readable lines.
 */
export function createLogger(
  level: LogLevel,
  destination?: DestinationStream,
  format?: LogFormat,
): Logger {
  return pino(
    {
      level: PINO_LEVEL[level],
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
    },
    destination ?? stdout(format ?? defaultLogFormat()),
  );
}
