import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuditModule } from './audit/audit.module';
import { AuthGuard } from './auth/auth.guard';
import { AuthModule } from './auth/auth.module';
import { CountedThrottlerGuard } from './common/http/counted-throttler.guard';
import { GlobalExceptionFilter } from './common/http/global-exception.filter';
import { PathNamesGuard } from './common/http/path-names.guard';
import { createValidationPipe } from './common/http/validation.pipe';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { ReaderGroupsModule } from './reader-groups/reader-groups.module';
import { ScopesModule } from './scopes/scopes.module';
import { StreamsModule } from './streams/streams.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // Off (skipped) at 0; per client address, per instance.
        ThrottlerModule.forRoot({
          throttlers: [{ ttl: 60_000, limit: Math.max(1, config.RATE_LIMIT_PER_MINUTE) }],
          skipIf: () => config.RATE_LIMIT_PER_MINUTE === 0,
        }),
        AuthModule,
        AuditModule,
        DatabaseModule,
        ScopesModule,
        StreamsModule,
        ReaderGroupsModule,
        HealthModule,
        MetricsModule.forRoot(config.METRICS_ENABLED),
      ],
      providers: [
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: GlobalExceptionFilter },
        // In this order: rate limit, then credentials and permissions, then names in the path.
        { provide: APP_GUARD, useClass: CountedThrottlerGuard },
        { provide: APP_GUARD, useExisting: AuthGuard },
        { provide: APP_GUARD, useClass: PathNamesGuard },
      ],
    };
  }
}
