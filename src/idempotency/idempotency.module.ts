import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyPurgeService } from './idempotency-purge.service';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/**
 * Idempotency-Key for the POST routes that are `@Idempotent()`: global, since every feature
 * module with such a route builds the route's interceptor.
 */
@Global()
@Module({
  providers: [
    IdempotencyRepository,
    IdempotencyService,
    IdempotencyInterceptor,
    IdempotencyPurgeService,
  ],
  exports: [IdempotencyInterceptor, IdempotencyService],
})
export class IdempotencyModule {}
