import { Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { AuthGuard } from './auth/auth.guard';
import { ReadableListInterceptor } from './auth/readable-list.interceptor';
import { GlobalExceptionFilter } from './common/http/global-exception.filter';
import { OperationGuard } from './common/http/operation.guard';
import { documentBody, jsonBody } from './common/http/json-body.middleware';
import { APPLY_PATH } from './apply/apply.controller';
import { PathNamesGuard } from './common/http/path-names.guard';
import { requestId } from './common/http/request-id.middleware';
import { createValidationPipe } from './common/http/validation.pipe';
import { ListAnswerInterceptor } from './common/pagination/list-answer.interceptor';
import { NextPageLinkInterceptor } from './common/pagination/next-page-link.interceptor';
import { AppConfig } from './config/app-config';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { requestLogger } from './logging/request-logger.middleware';
import { httpMetrics } from './metrics/http-metrics.middleware';
import { MetricsService } from './metrics/metrics.service';
import { CountedThrottlerGuard } from './rate-limit/counted-throttler.guard';

/**
 * The path of every request, in the order it runs. This file is the one place that registers
 * behaviour for all routes; feature modules register none.
 */

/** The browser origins CORS_ORIGINS allows: `true` for any (`*`), none when unset. */
function corsOrigins(config: AppConfig): string[] | boolean {
  const origins = (config.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim());
  return origins.includes('*') ? true : origins.filter(Boolean);
}

/** 1. Express middleware, before any routing. */
export function useExpressMiddleware(
  app: NestExpressApplication,
  config: AppConfig,
  logger: Logger,
): void {
  // 1a. A request id for every request, echoed in X-Request-Id; everything after logs it.
  app.use(requestId);
  // 1b. The request log line and 1c. the request metrics, written when the response ends:
  // first, so they see every request, refused ones included.
  app.use(requestLogger(logger));
  if (config.METRICS_ENABLED) app.use(httpMetrics(app.get(MetricsService)));
  // 1d. Security headers.
  app.use(helmet());
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
  // 1f. The body gate: 415 for other media types, 413 over the limit, 400 for bad JSON or YAML.
  // Whole documents (apply) may be JSON or YAML and larger; every other body is JSON.
  app.use(`/${APPLY_PATH}`, documentBody(config.APPLY_MAX_BODY_BYTES));
  app.use(jsonBody(config.MAX_BODY_BYTES));
}

/** 2 to 5: Nest's enhancers for every route, as providers of the root module. */
export const PIPELINE_PROVIDERS: Provider[] = [
  // 2a. Guard that refuses nothing: notes the matched handler's operation on the request, for
  // the log line and metrics of 1b and 1c, refused requests included.
  { provide: APP_GUARD, useClass: OperationGuard },
  // 2b. Guard: the rate limit per client address (off at RATE_LIMIT_PER_MINUTE=0).
  { provide: APP_GUARD, useClass: CountedThrottlerGuard },
  // 2c. Guard: credentials (401) and the route's permission (403), before names are looked at.
  { provide: APP_GUARD, useExisting: AuthGuard },
  // 2d. Guard: names in the path that cannot exist are 404 (or 400) before any handler runs.
  { provide: APP_GUARD, useClass: PathNamesGuard },
  // 3. Pipe: bodies and queries validated into their DTOs; 400 naming each invalid field.
  { provide: APP_PIPE, useFactory: createValidationPipe },
  // 4a. Interceptor, outermost: a POST with an Idempotency-Key runs in the transaction that
  // keeps its answer (services join it), or gets the answer kept for its key.
  { provide: APP_INTERCEPTOR, useExisting: IdempotencyInterceptor },
  // 4b. Interceptor: a list's answer is sent as JSON, a whole list streamed as it is read, in
  // batches of one database snapshot (its memory does not grow with its length).
  { provide: APP_INTERCEPTOR, useClass: ListAnswerInterceptor },
  // 4c. Interceptor: lists keep only the items the caller may READ.
  { provide: APP_INTERCEPTOR, useClass: ReadableListInterceptor },
  // 4d. Interceptor: a page with more to follow links the next one (`Link: <...>; rel="next"`).
  { provide: APP_INTERCEPTOR, useClass: NextPageLinkInterceptor },
  // 5. Filter: every error becomes its status and problem document.
  { provide: APP_FILTER, useClass: GlobalExceptionFilter },
];
