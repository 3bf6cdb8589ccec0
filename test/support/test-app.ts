import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { APPLICATION_OPTIONS, configureApp, createHttpAdapter } from '../../src/app.setup';
import { loadConfig } from '../../src/config/app-config';
import { openDatabase } from '../../src/startup/open-database';
import { createTestDatabase } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  /** A supertest agent bound to the app's real HTTP server. */
  http: ReturnType<typeof request>;
  /** The URL of the app's database, for a connection of the test's own. */
  url: string;
  /** Runs SQL directly, to look behind the API (what was or was not written). */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * The real application (same module, pipes, filters and HTTP edge as production) on a fresh
 * database of its own, with the real migrations applied at start as production applies them.
 */
export async function startTestApp(
  env: NodeJS.ProcessEnv = {},
  /** Rewrites the database URL, e.g. to reach the database through a proxy. */
  route: (url: string) => string = (url) => url,
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'fatal',
    // The app shares its process with jest, which blocks the event loop for seconds while it
    // compiles test files and holds every test file's heap: only the tests of those checks
    // set real limits.
    HEALTH_EVENT_LOOP_LAG_LIMIT_MS: '60000',
    HEALTH_HEAP_LIMIT_MB: '65536',
    HEALTH_RSS_LIMIT_MB: '65536',
    ...env,
    DATABASE_URL: route(database.url),
  });
  // As production starts: the database is opened (and migrated) before the application, whose
  // logs (these included) the tests do not show.
  Logger.overrideLogger(false);
  await openDatabase(config);
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config)],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(createHttpAdapter(config), {
    ...APPLICATION_OPTIONS,
    logger: false,
  });
  configureApp(app, config);
  await app.init();
  const dataSource = app.get(DataSource);
  return {
    app,
    http: request(app.getHttpServer()),
    url: database.url,
    sql: (query, params) => dataSource.query(query, params),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
