/**
 * The Nest floor: a bare Nest application on Express answering the benchmark's routes through
 * the handlers the node floor uses (`floor-handlers.ts`): no global middleware, guards,
 * interceptors, pipes, logging or metrics; Nest's defaults otherwise (its JSON body parser, its
 * exception handler). What it costs over the node floor is what the framework costs; what the
 * service costs over it is what the service adds. Started by `bench/run.ts` with PORT,
 * DATABASE_URL and DB_POOL_SIZE.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { closePool } from './floor-handlers';
import { NestFloorController } from './nest-floor.controller';

@Module({ controllers: [NestFloorController] })
class NestFloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(NestFloorModule, { logger: false });
  // As the service: no ETag (hashing each answer is a setting, not a part of the framework).
  app.set('etag', false);
  await app.listen(Number(process.env.PORT ?? 9093), process.env.HOST ?? '127.0.0.1');
  // A normal exit, so that `--cpu-prof` writes its profile.
  const stop = (): void => void app.close().then(closePool);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
