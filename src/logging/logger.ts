import pino, { DestinationStream, Level, Logger } from 'pino';
import { LogLevel } from '../config/app-config';

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

/**
 * The service's one logger: a JSON object per line on stdout (or on `destination`), with the
 * level by name and the time in ISO 8601, written as it happens.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level: PINO_LEVEL[level],
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
    },
    // Synchronous: the process ends by re-raising SIGTERM (or dies), and buffered lines, the
    // last ones of a shutdown among them, would be lost.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
