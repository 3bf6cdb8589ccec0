import { Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { APPLY_PATH } from './apply/apply.controller';
import { ApplyDocumentDto } from './apply/apply-document.dto';
import { AccessGuard } from './auth/access.guard';
import { OidcIssuer } from './auth/oidc/oidc-issuer.service';
import { AppConfig } from './config/app-config';
import { PROBE_PATHS } from './health/probes.controller';
import { GlobalExceptionFilter } from './http/global-exception.filter';
import { requestBodies } from './http/request-body.middleware';
import { requestId } from './http/request-id.middleware';
import { RequestValidationPipe } from './http/validation.pipe';
import { requestLogger } from './logging/request-logger.middleware';
import { httpMetrics } from './metrics/http-metrics.middleware';
import { METRICS_PATH } from './metrics/metrics.controller';
import { securityHeaders } from './openapi/openapi-document';
import { MetricsService } from './metrics/metrics.service';
import { CountedThrottlerGuard } from './rate-limit/counted-throttler.guard';

/**
 * The path of every request, in the order it runs: the one place that registers behaviour for
 * all routes (docs/ARCHITECTURE.md walks it). What only some routes need is attached by those
 * routes' own decorators, each named here where it runs:
 *
 * - `@Idempotent()` (POST routes): `Idempotency-Key`, the route's outermost interceptor;
 * - `@TaggedAnswer()`, `@ConditionalRead()` (routes that answer one resource): its `ETag`, and
 *   304 for a read whose `If-None-Match` names it;
 * - `@Paged()` (list routes): a page or the whole list streamed, only what the caller may see,
 *   the `Link` of the next page;
 * - `ProbeStatusInterceptor` (`/livez`, `/readyz`): 503 when the answer says no.
 *
 * After the handler, the HTTP adapter (`ServiceHttpAdapter`) sends every answer as JSON.
 */

/** The browser origins CORS_ORIGINS allows: `true` for any (`*`), none when unset. */
function corsOrigins(config: AppConfig): string[] | boolean {
  const origins = (config.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim());
  return origins.includes('*') ? true : origins.filter(Boolean);
}

/**
 * 1. Express middleware, before any routing. (Before them all, once the service begins to stop:
 * a listener of the server's that makes every response close its connection, added by
 * `GracefulShutdown` only then, so that it costs nothing until then.)
 */
export function useExpressMiddleware(
  app: NestExpressApplication,
  config: AppConfig,
  logger: Logger,
): void {
  // 1a. A request id for every request, echoed in X-Request-Id; everything after logs it.
  app.use(requestId);
  // 1b. The request log line and 1c. the request metrics, written when the response ends:
  // first, so they see every request, refused ones included. Probes and scrapes log at debug.
  app.use(requestLogger(logger, new Set([...PROBE_PATHS, METRICS_PATH])));
  if (config.METRICS_ENABLED) app.use(httpMetrics(app.get(MetricsService)));
  // 1d. Security headers; pages may call the provider when Swagger UI signs in there.
  app.use(helmet(securityHeaders(config, app.get(OidcIssuer))));
  // 1e. CORS, when configured (answers preflights itself).
  if (config.CORS_ORIGINS) {
    app.enableCors({
      origin: corsOrigins(config),
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: [
        'Content-Type',
        'Accept',
        'Authorization',
        'If-Match',
        'If-None-Match',
        'Idempotency-Key',
        'Last-Event-ID',
      ],
      exposedHeaders: [
        'X-Request-Id',
        'Retry-After',
        'WWW-Authenticate',
        'ETag',
        'Idempotent-Replayed',
        'Link',
      ],
      maxAge: 600,
    });
  }
  // 1f. The body gate: 415 for other media types, 413 over the limit, 400 for bad JSON or YAML,
  // too deep, or with a list too long. Whole documents (apply) may be JSON or YAML and larger;
  // every other body is JSON.
  app.use(
    requestBodies(
      config.MAX_BODY_BYTES,
      `/${APPLY_PATH}`,
      config.APPLY_MAX_BODY_BYTES,
      ApplyDocumentDto,
    ),
  );
}

/** 2 to 4: Nest's enhancers for every route, as providers of the root module. */
export function pipelineProviders(config: AppConfig): Provider[] {
  return [
    // 2a. Guard, only while RATE_LIMIT_PER_MINUTE is above 0: the rate limit per client address.
    ...(config.RATE_LIMIT_PER_MINUTE > 0
      ? [{ provide: APP_GUARD, useClass: CountedThrottlerGuard }]
      : []),
    // 2b. Guard: notes the route's operation on the request (the log line, metrics and audit
    // name it); with AUTH_ENABLED, credentials (401) and the route's permission (403).
    { provide: APP_GUARD, useExisting: AccessGuard },
    // 3. Pipe: bodies and queries validated into their DTOs (400 naming each invalid field);
    // a name in the path that no resource can have is 404 before any query.
    { provide: APP_PIPE, useClass: RequestValidationPipe },
    // (The route's own interceptors and its handler run here.)
    // 4. Filter: every error becomes its status and problem document.
    { provide: APP_FILTER, useClass: GlobalExceptionFilter },
  ];
}
