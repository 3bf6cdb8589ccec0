import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { NodeSDK, type NodeSDKConfiguration } from '@opentelemetry/sdk-node';

type SpanProcessor = NonNullable<NodeSDKConfiguration['spanProcessors']>[number];

/** Keeps nothing: spans only need to be recorded (and so valid), not sent anywhere. */
const DISCARD: SpanProcessor = {
  onStart: () => undefined,
  onEnd: () => undefined,
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/**
 * The real SDK, started in the test's process with no instrumentation and no exporter: its
 * context manager carries the active span as in the service, for code that reads it.
 */
export function startInProcessTracing(): { tracer: Tracer; stop: () => Promise<void> } {
  const sdk = new NodeSDK({
    autoDetectResources: false,
    spanProcessors: [DISCARD],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return {
    tracer: trace.getTracer('test'),
    stop: async () => {
      await sdk.shutdown();
      // The API's globals back to no-ops, as in a process that never traced.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
