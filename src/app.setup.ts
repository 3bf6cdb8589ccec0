import { NestExpressApplication } from '@nestjs/platform-express';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { ServiceHttpAdapter } from './http/service-http.adapter';
import { AppConfig } from './config/app-config';
import { serveConsole } from './console/serve-console';
import { trustedProxies } from './http/trust-proxy';
import { createLogger } from './logging/logger';
import { serveApiDocs } from './openapi/openapi-document';
import { useExpressMiddleware } from './request-pipeline';

/** Options every Nest application of this service is created with (production and tests). */
export const APPLICATION_OPTIONS = { bodyParser: false } as const;

/** The HTTP server of every application of this service: its timeouts, HTTPS when configured. */
export function createHttpAdapter(config: AppConfig): ServiceHttpAdapter {
  const tls =
    config.TLS_CERT_FILE && config.TLS_KEY_FILE
      ? { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) }
      : undefined;
  return new ServiceHttpAdapter(
    {
      requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    tls,
  );
}

/**
 * The HTTP edge shared by production and tests: the Express middleware of the request pipeline
 * (request-pipeline.ts), the web console (`/console`), and the API document with Swagger UI
 * (`/openapi.json`, `/openapi.yaml`, `/docs`). `logger` receives the request lines (by default a logger of its
 * own at LOG_LEVEL on stdout).
 */
export function configureApp(
  app: NestExpressApplication,
  config: AppConfig,
  logger: Logger = createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT),
): void {
  app.disable('x-powered-by');
  // Nothing revalidates: hashing every answer for an ETag costs a few percent of a small read.
  app.set('etag', false);
  // Behind a load balancer (TRUST_PROXY): `req.ip` is the client it names in X-Forwarded-For,
  // for the audit, the log line, the rate limit and the failed-login limit alike.
  const proxies = trustedProxies(config.TRUST_PROXY);
  if (proxies !== undefined) app.set('trust proxy', proxies);
  useExpressMiddleware(app, config, logger);
  serveConsole(app, config);
  serveApiDocs(app, config);
}
