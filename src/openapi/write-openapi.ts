import 'reflect-metadata';
import { ConsoleLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { createOpenApiDocument } from './openapi-document';

/** The committed document, at the top of the repository (this file runs from dist/src/openapi). */
export const COMMITTED_DOCUMENT = join(__dirname, '../../../openapi.json');

/**
 * Writes the API document (`npm run openapi`). The application is created in preview mode:
 * its modules and routes are scanned, but no provider is instantiated, so no database is
 * needed or started.
 */
async function main(): Promise<void> {
  const target = process.argv[2] ? resolve(process.argv[2]) : COMMITTED_DOCUMENT;
  const app = await NestFactory.create(AppModule.forRoot(loadConfig({})), {
    preview: true,
    logger: false,
  });
  try {
    const document = createOpenApiDocument(app);
    await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
  } finally {
    await app.close();
  }
  new ConsoleLogger('OpenAPI').log(`wrote ${target}`);
}

main().catch((error: unknown) => {
  new ConsoleLogger('OpenAPI').fatal(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
