import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { APPLICATION_OPTIONS, configureApp, createHttpAdapter } from './app.setup';
import { AppConfig, InvalidConfigError, loadConfig } from './config/app-config';
import { createLogger } from './logging/logger';
import { NestPinoLogger } from './logging/nest-logger';

function readConfig(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    createLogger('log').fatal({ context: 'Config' }, error.message);
    process.exit(1);
  }
}

/** Every log, Nest's own included, is a JSON line of the one pino logger. */
async function bootstrap(config: AppConfig, logger: Logger): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config),
    createHttpAdapter(config),
    { ...APPLICATION_OPTIONS, logger: new NestPinoLogger(logger), abortOnError: false },
  );
  configureApp(app, config, logger);
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  const scheme = config.TLS_CERT_FILE ? 'https' : 'http';
  new NestLogger('Tributary').log(`listening on ${scheme}://${config.HOST}:${config.PORT}/v1`);
}

const config = readConfig();
const logger = createLogger(config.LOG_LEVEL);
bootstrap(config, logger).catch((error: unknown) => {
  logger.fatal(
    { context: 'Tributary' },
    `failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
