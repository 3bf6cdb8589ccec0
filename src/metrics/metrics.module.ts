import { DynamicModule, Global, Module } from '@nestjs/common';
import { DatabaseServerModule } from '../database/database.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * {@link MetricsService} for every module (the access guard and the rate limiter report to it),
 * and `GET /metrics` when metrics are enabled.
 */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(enabled: boolean): DynamicModule {
    return {
      module: MetricsModule,
      imports: [DatabaseServerModule],
      controllers: enabled ? [MetricsController] : [],
      providers: [MetricsService],
      exports: [MetricsService],
    };
  }
}
