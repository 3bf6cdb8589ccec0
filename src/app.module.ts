import { DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { ApplyModule } from './apply/apply.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DescribeModule } from './describe/describe.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { MetricsModule } from './metrics/metrics.module';
import { PaginationModule } from './pagination/pagination.module';
import { pipelineProviders } from './request-pipeline';
import { ReaderGroupsModule } from './reader-groups/reader-groups.module';
import { ScopesModule } from './scopes/scopes.module';
import { ScopeComplianceModule } from './policies/scope-compliance.module';
import { ScopePoliciesModule } from './policies/scope-policies.module';
import { StreamsModule } from './streams/streams.module';
import { TracingModule } from './tracing/tracing.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // Per client address, per instance; no limit at all at 0.
        ...(config.RATE_LIMIT_PER_MINUTE > 0
          ? [
              ThrottlerModule.forRoot({
                throttlers: [{ ttl: 60_000, limit: config.RATE_LIMIT_PER_MINUTE }],
              }),
            ]
          : []),
        AuthModule,
        AuditModule,
        DatabaseModule,
        PaginationModule,
        ScopesModule,
        ScopePoliciesModule,
        ScopeComplianceModule,
        StreamsModule,
        ReaderGroupsModule,
        DescribeModule,
        ApplyModule,
        EventsModule,
        HealthModule,
        IdempotencyModule,
        MetricsModule.forRoot(config.METRICS_ENABLED),
        TracingModule,
      ],
      // The guards, pipe and filter of every route: see request-pipeline.ts.
      providers: pipelineProviders(config),
    };
  }
}
