import { LogLevel as NestLogLevel } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { jsonBody } from './common/http/json-body.middleware';
import { TimedExpressAdapter } from './common/http/timed-express.adapter';
import { requestId } from './common/http/request-id.middleware';
import { AppConfig, LOG_LEVELS, LogLevel } from './config/app-config';
import { httpMetrics } from './metrics/http-metrics.middleware';
import { MetricsService } from './metrics/metrics.service';
import { serveApiDocs } from './openapi/openapi-document';

/** Options every Nest application of this service is created with (production and tests). */
export const APPLICATION_OPTIONS = { bodyParser: false } as const;

/** The HTTP server of every application of this service, with its timeouts. */
export function createHttpAdapter(config: AppConfig): TimedExpressAdapter {
  return new TimedExpressAdapter({
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  });
}

/** The log levels at `level` and above in severity. */
export function logLevelsFrom(level: LogLevel): NestLogLevel[] {
  return LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(level) + 1);
}

/**
 * The HTTP edge shared by production and tests: request ids, the request metrics (before the
 * JSON body gate, so they see every request, refused ones included), then the gate; and the
 * API document with Swagger UI (`/openapi.json`, `/openapi.yaml`, `/docs`).
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.disable('x-powered-by');
  app.use(requestId);
  if (config.METRICS_ENABLED) app.use(httpMetrics(app.get(MetricsService)));
  app.use(jsonBody(config.MAX_BODY_BYTES));
  serveApiDocs(app);
}
