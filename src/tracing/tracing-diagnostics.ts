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

/**
 * The SDK's own reports (an export that failed: the collector unreachable, refusing, slow) as
 * entries of the service's log, `context` OpenTelemetry, instead of the console or nowhere.
 */
export function logTracingDiagnostics(logger: Logger, env: NodeJS.ProcessEnv): void {
  const log = logger.child({ context: 'OpenTelemetry' });
  const at =
    (level: Level) =>
    (message: string, ...details: unknown[]) =>
      log[level](details.length > 0 ? { details: details.map(String) } : {}, readable(message));
  const diagnostics: DiagLogger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    verbose: at('trace'),
  };
  // Replaces the console logger the SDK sets up itself when OTEL_LOG_LEVEL is set.
  diag.setLogger(diagnostics, {
    logLevel: diagnosticsLevelOf(env),
    suppressOverrideMessage: true,
  });
}
