import { Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyPurgeService } from './idempotency-purge.service';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/** Idempotency-Key for every POST; the request pipeline installs the interceptor. */
@Module({
  providers: [
    IdempotencyRepository,
    IdempotencyService,
    IdempotencyInterceptor,
    IdempotencyPurgeService,
  ],
  exports: [IdempotencyInterceptor],
})
export class IdempotencyModule {}
