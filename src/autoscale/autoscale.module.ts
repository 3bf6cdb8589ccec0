import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { StreamsModule } from '../streams/streams.module';
import { LoadReportsController } from './load-reports.controller';
import { LoadReportsService } from './load-reports.service';
import { LoadScalesController } from './load-scales.controller';
import { LoadScalesService } from './load-scales.service';
import { SegmentLoadsRepository } from './segment-loads.repository';
import { SilenceSweep } from './silence-sweep.service';

/**
 * Scaling by load: reports of segments' rates, acted on by the reference's rules, and the
 * scales they made.
 */
@Module({
  imports: [StreamsModule, AuditModule],
  controllers: [LoadReportsController, LoadScalesController],
  providers: [LoadReportsService, LoadScalesService, SegmentLoadsRepository, SilenceSweep],
})
export class AutoscaleModule {}
