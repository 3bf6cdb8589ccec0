// First: traces, when asked for, patch http, express and pg as they are first loaded.
import './tracing/register';
import 'reflect-metadata';
import { Logger as NestLogger, ShutdownSignal } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { APPLICATION_OPTIONS, configureApp, createHttpAdapter } from './app.setup';
import { AppConfig, InvalidConfigError, loadConfig, LOG_FORMATS } from './config/app-config';
import { DatabaseServer } from './database/database-server';
import { createLogger } from './logging/logger';
import { NestPinoLogger } from './logging/nest-logger';
import { API_DOCS_PATHS } from './openapi/openapi-document';
import { OpenedDatabase, openDatabase } from './startup/open-database';
import { assertPortFree, listenFailure } from './startup/port-check';
import { StartupError } from './startup/startup-error';
import { logTracingDiagnostics } from './tracing/tracing-diagnostics';
import { tracingStarted } from './tracing/tracing';

function readConfig(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    // LOG_FORMAT as the person asked for it, either way, even when another setting is invalid.
    const format = LOG_FORMATS.find((f) => f === process.env.LOG_FORMAT?.trim());
    createLogger('log', undefined, format).fatal({ context: 'Config' }, error.message);
    process.exit(1);
  }
}

/** Where a person finds the API, the console, its document, Swagger UI and the metrics. */
function addresses(config: AppConfig): string {
  const scheme = config.TLS_CERT_FILE ? 'https' : 'http';
  const host = ['0.0.0.0', '::'].includes(config.HOST) ? 'localhost' : config.HOST;
  const base = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
  const parts = [
    `API ${base}/v1`,
    ...(config.CONSOLE_ENABLED ? [`console ${base}/console`] : []),
    `Swagger UI ${base}${API_DOCS_PATHS.ui}`,
    `OpenAPI ${base}${API_DOCS_PATHS.json}`,
  ];
  if (config.METRICS_ENABLED) parts.push(`metrics ${base}/metrics`);
  return parts.join(' · ');
}

/**
 * Start-up in the order that fails fastest: the port, then the database (started or waited
 * for, and migrated), then the application. Every Nest log goes through the one pino logger.
 */
async function bootstrap(config: AppConfig, logger: Logger): Promise<void> {
  NestLogger.overrideLogger(new NestPinoLogger(logger));
  await assertPortFree(config.HOST, config.PORT);
  let database: OpenedDatabase | undefined = await openDatabase(config);
  try {
    const app = await NestFactory.create<NestExpressApplication>(
      AppModule.forRoot({ ...config, DATABASE_URL: database.url }),
      createHttpAdapter(config),
      { ...APPLICATION_OPTIONS, logger: new NestPinoLogger(logger), abortOnError: false },
    );
    app.get(DatabaseServer).adopt(database.embedded);
    database = undefined;
    configureApp(app, config, logger);
    // With authentication on, SIGHUP reads the accounts and group ACLs again (AccessFiles).
    app.enableShutdownHooks(
      Object.values(ShutdownSignal).filter(
        (signal) => !(config.AUTH_ENABLED && signal === ShutdownSignal.SIGHUP),
      ),
    );
    try {
      await app.listen(config.PORT, config.HOST);
    } catch (error) {
      await app.close();
      throw listenFailure(error, config.HOST, config.PORT);
    }
    new NestLogger('Tributary').log(`ready: ${addresses(config)}`);
  } finally {
    await database?.embedded?.stop();
  }
}

const config = readConfig();
const logger = createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT);
if (tracingStarted()) logTracingDiagnostics(logger, process.env);
bootstrap(config, logger).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // A StartupError is the whole story; anything else is a bug, and its stack helps fix it.
  const fields =
    error instanceof StartupError || !(error instanceof Error)
      ? { context: 'Tributary' }
      : { context: 'Tributary', stack: error.stack };
  logger.fatal(fields, `cannot start: ${message}`);
  process.exit(1);
});
