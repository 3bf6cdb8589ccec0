import { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { jsonBody } from './common/http/json-body.middleware';
import { TimedExpressAdapter } from './common/http/timed-express.adapter';
import { requestContext } from './common/http/request-context';
import { requestId } from './common/http/request-id.middleware';
import { AppConfig } from './config/app-config';
import { createLogger } from './logging/logger';
import { requestLogger } from './logging/request-logger.middleware';
import { httpMetrics } from './metrics/http-metrics.middleware';
import { MetricsService } from './metrics/metrics.service';
import { serveApiDocs } from './openapi/openapi-document';

/** Options every Nest application of this service is created with (production and tests). */
export const APPLICATION_OPTIONS = { bodyParser: false } as const;

/** The HTTP server of every application of this service: its timeouts, HTTPS when configured. */
export function createHttpAdapter(config: AppConfig): TimedExpressAdapter {
  const tls =
    config.TLS_CERT_FILE && config.TLS_KEY_FILE
      ? { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) }
      : undefined;
  return new TimedExpressAdapter(
    {
      requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    tls,
  );
}

/** The browser origins CORS_ORIGINS allows: `true` for any (`*`), none when unset. */
function corsOrigins(config: AppConfig): string[] | boolean {
  const origins = (config.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim());
  return origins.includes('*') ? true : origins.filter(Boolean);
}

/**
 * The HTTP edge shared by production and tests: request ids, the request log line and the
 * request metrics (first, so they see every request, refused ones included), security headers,
 * CORS when configured, then the JSON body gate; and the API document with Swagger UI
 * (`/openapi.json`, `/openapi.yaml`, `/docs`). `logger` receives the request lines (by default
 * a logger of its own at LOG_LEVEL on stdout).
 */
export function configureApp(
  app: NestExpressApplication,
  config: AppConfig,
  logger: Logger = createLogger(config.LOG_LEVEL),
): void {
  app.disable('x-powered-by');
  // Nothing revalidates: hashing every answer for an ETag costs a few percent of a small read.
  app.set('etag', false);
  app.use(requestId);
  app.use(requestContext);
  app.use(requestLogger(logger));
  if (config.METRICS_ENABLED) app.use(httpMetrics(app.get(MetricsService)));
  app.use(helmet());
  if (config.CORS_ORIGINS) {
    app.enableCors({
      origin: corsOrigins(config),
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Content-Type', 'Accept', 'Authorization'],
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'WWW-Authenticate'],
      maxAge: 600,
    });
  }
  app.use(jsonBody(config.MAX_BODY_BYTES));
  serveApiDocs(app);
}
