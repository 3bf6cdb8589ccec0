/** The service's name in its traces when OTEL_SERVICE_NAME does not give one. */
export const DEFAULT_SERVICE_NAME = 'tributary';

const valueOf = (env: NodeJS.ProcessEnv, name: string): string => env[name]?.trim() ?? '';

/**
 * Whether the environment asks for traces (docs/tracing.md): an exporter named in
 * OTEL_TRACES_EXPORTER (`none` is none), or else an OTLP endpoint; never with
 * OTEL_SDK_DISABLED=true. Read before anything else is loaded, so not through AppConfig.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (valueOf(env, 'OTEL_SDK_DISABLED').toLowerCase() === 'true') return false;
  const exporters = valueOf(env, 'OTEL_TRACES_EXPORTER')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (exporters.length > 0) return exporters[0] !== 'none';
  return (
    valueOf(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== '' ||
    valueOf(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== ''
  );
}

/** OTEL_SERVICE_NAME, else `tributary`. */
export function serviceNameOf(env: NodeJS.ProcessEnv): string {
  return valueOf(env, 'OTEL_SERVICE_NAME') || DEFAULT_SERVICE_NAME;
}
