import { LogLevel as NestLogLevel } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { jsonBody } from './common/http/json-body.middleware';
import { requestId } from './common/http/request-id.middleware';
import { AppConfig, LOG_LEVELS, LogLevel } from './config/app-config';
import { serveApiDocs } from './openapi/openapi-document';

/** Options every Nest application of this service is created with (production and tests). */
export const APPLICATION_OPTIONS = { bodyParser: false } as const;

/** The log levels at `level` and above in severity. */
export function logLevelsFrom(level: LogLevel): NestLogLevel[] {
  return LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(level) + 1);
}

/**
 * The HTTP edge shared by production and tests: request ids, then the JSON body gate; and the
 * API document with Swagger UI (`/openapi.json`, `/openapi.yaml`, `/docs`).
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.disable('x-powered-by');
  app.use(requestId);
  app.use(jsonBody(config.MAX_BODY_BYTES));
  serveApiDocs(app);
}
