import 'reflect-metadata';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { APPLICATION_OPTIONS, configureApp, createHttpAdapter, logLevelsFrom } from './app.setup';
import { AppConfig, InvalidConfigError, loadConfig } from './config/app-config';

function readConfig(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    new ConsoleLogger('Config').fatal(error.message);
    process.exit(1);
  }
}

async function bootstrap(): Promise<void> {
  const config = readConfig();
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config),
    createHttpAdapter(config),
    { ...APPLICATION_OPTIONS, logger: logLevelsFrom(config.LOG_LEVEL), abortOnError: false },
  );
  configureApp(app, config);
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  const scheme = config.TLS_CERT_FILE ? 'https' : 'http';
  new Logger('Tributary').log(`listening on ${scheme}://${config.HOST}:${config.PORT}/v1`);
}

bootstrap().catch((error: unknown) => {
  new ConsoleLogger('Tributary').fatal(
    `failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
