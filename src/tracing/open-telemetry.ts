import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { queryNamesOf } from './query-names';
import { holdTracingDiagnostics } from './tracing-diagnostics';
import { serviceNameOf } from './tracing-settings';

/**
 * The OpenTelemetry SDK with the service's instrumentations, started. Loaded only when traces
 * are asked for (`tracing.ts`): with them off, none of these packages is ever required.
 * The exporter, its endpoint and protocol, the sampler and the batching are the SDK's own
 * OTEL_* variables, which it reads from the process's environment (docs/tracing.md).
 */
export function startOpenTelemetry(env: NodeJS.ProcessEnv): NodeSDK {
  const sdk = new NodeSDK({
    serviceName: serviceNameOf(env),
    instrumentations: [
      new HttpInstrumentation({
        // A query string's names only, as the request log writes none of it (docs/tracing.md).
        startIncomingSpanHook: (request) => {
          const query = queryNamesOf(request.url);
          return query === undefined ? {} : { 'url.query': query };
        },
      }),
      // The route's handler is a span; the middleware before it (request id, log line, headers,
      // body gate) is part of the server span's time rather than a span each.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Statements as their SQL text with its placeholders, never their parameters; only those
      // run for a traced request (the feed's polling and the purges are not traces of their own).
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
    ],
    // Traces only: the metrics are the service's own (/metrics), its logs are on stdout.
    metricReaders: [],
    logRecordProcessors: [],
  });
  holdTracingDiagnostics(env);
  sdk.start();
  // Nest loads express as an ES module, which the instrumentations' require hook never sees:
  // required once here, its module (the one Nest's import shares) is patched before the
  // application is built.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('express');
  return sdk;
}
