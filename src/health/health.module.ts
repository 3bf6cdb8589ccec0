import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { AuthModule } from '../auth/auth.module';
import { GracefulShutdown } from './graceful-shutdown.service';
import { HealthController } from './health.controller';
import { HealthMetrics } from './health-metrics';
import { HealthService } from './health.service';
import { DatabaseIndicator } from './indicators/database.indicator';
import { DiskSpaceIndicator } from './indicators/disk-space.indicator';
import { EventLoopIndicator } from './indicators/event-loop.indicator';
import { ProbesController } from './probes.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), AuthModule],
  controllers: [HealthController, ProbesController],
  providers: [
    HealthService,
    HealthMetrics,
    GracefulShutdown,
    DatabaseIndicator,
    DiskSpaceIndicator,
    EventLoopIndicator,
  ],
})
export class HealthModule {}
