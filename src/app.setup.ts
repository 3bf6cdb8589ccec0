import { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { jsonBody } from './common/http/json-body.middleware';
import { TimedExpressAdapter } from './common/http/timed-express.adapter';
import { requestId } from './common/http/request-id.middleware';
import { AppConfig } from './config/app-config';
import { createLogger } from './logging/logger';
import { requestLogger } from './logging/request-logger.middleware';
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

/**
 * The HTTP edge shared by production and tests: request ids, the request log line and the
 * request metrics (first, so they see every request, refused ones included), then the JSON
 * body gate; and the API document with Swagger UI (`/openapi.json`, `/openapi.yaml`, `/docs`).
 * `logger` receives the request lines (by default a logger of its own at LOG_LEVEL on stdout).
 */
export function configureApp(
  app: NestExpressApplication,
  config: AppConfig,
  logger: Logger = createLogger(config.LOG_LEVEL),
): void {
  app.disable('x-powered-by');
  app.use(requestId);
  app.use(requestLogger(logger));
  if (config.METRICS_ENABLED) app.use(httpMetrics(app.get(MetricsService)));
  app.use(jsonBody(config.MAX_BODY_BYTES));
  serveApiDocs(app);
}
