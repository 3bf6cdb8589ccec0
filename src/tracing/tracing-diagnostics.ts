import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import type { Level, Logger } from 'pino';

/** OTEL_LOG_LEVEL's values (any case); unset or unknown, the SDK's warnings and errors. */
export function diagnosticsLevelOf(env: NodeJS.ProcessEnv): DiagLogLevel {
  const name = env.OTEL_LOG_LEVEL?.trim().toUpperCase() ?? '';
  const level = DiagLogLevel[name as keyof typeof DiagLogLevel] as DiagLogLevel | undefined;
  return typeof level === 'number' ? level : DiagLogLevel.WARN;
}

/** The SDK reports an exception as its properties in JSON: their message says it in one line. */
function readable(message: string): string {
  if (!message.startsWith('{')) return message;
  try {
    const parsed = JSON.parse(message) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : message;
  } catch {
    return message;
  }
}

type Write = (level: Level, message: string, details: unknown[]) => void;

function diagLogger(write: Write): DiagLogger {
  const at =
    (level: Level) =>
    (message: string, ...details: unknown[]) =>
      write(level, message, details);
  return {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    verbose: at('trace'),
  };
}

/** At most this many reports are held before the log exists; the SDK says little at start. */
const HELD_AT_MOST = 100;
let held: Parameters<Write>[] = [];

/**
 * Holds what the SDK reports while it starts (an exporter, protocol or sampler it does not
 * know), before the service's logger exists; `logTracingDiagnostics` writes it.
 */
export function holdTracingDiagnostics(env: NodeJS.ProcessEnv): void {
  held = [];
  const hold: Write = (...report) => {
    if (held.length < HELD_AT_MOST) held.push(report);
  };
  // Replaces the console logger the SDK sets up itself when OTEL_LOG_LEVEL is set.
  diag.setLogger(diagLogger(hold), {
    logLevel: diagnosticsLevelOf(env),
    suppressOverrideMessage: true,
  });
}

/**
 * The SDK's own reports (an export that failed: the collector unreachable, refusing, slow) as
 * entries of the service's log, `context` OpenTelemetry, instead of the console or nowhere;
 * those held since it started first.
 */
export function logTracingDiagnostics(logger: Logger, env: NodeJS.ProcessEnv): void {
  const log = logger.child({ context: 'OpenTelemetry' });
  const write: Write = (level, message, details) =>
    log[level](details.length > 0 ? { details: details.map(String) } : {}, readable(message));
  for (const report of held) write(...report);
  held = [];
  diag.setLogger(diagLogger(write), {
    logLevel: diagnosticsLevelOf(env),
    suppressOverrideMessage: true,
  });
}
