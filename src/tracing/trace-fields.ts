import { isSpanContextValid, trace } from '@opentelemetry/api';

/** The ids a log line carries to find its request's trace. */
export interface TraceFields {
  trace_id: string;
  span_id: string;
}

/**
 * The active span's trace and span ids, or nothing when there is no valid span (traces off:
 * the API then has no context to read, and this costs a function call).
 */
export function activeTraceFields(): TraceFields | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !isSpanContextValid(context)) return undefined;
  return { trace_id: context.traceId, span_id: context.spanId };
}
