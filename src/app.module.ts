import { DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { ApplyModule } from './apply/apply.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { PaginationModule } from './common/pagination/pagination.module';
import { HealthModule } from './health/health.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { MetricsModule } from './metrics/metrics.module';
import { PIPELINE_PROVIDERS } from './request-pipeline';
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
        PaginationModule,
        ScopesModule,
        StreamsModule,
        ReaderGroupsModule,
        ApplyModule,
        HealthModule,
        IdempotencyModule,
        MetricsModule.forRoot(config.METRICS_ENABLED),
      ],
      // The guards, pipe, interceptor and filter of every route: see request-pipeline.ts.
      providers: PIPELINE_PROVIDERS,
    };
  }
}
