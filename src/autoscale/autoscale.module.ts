import { Module } from '@nestjs/common';
import { StreamsModule } from '../streams/streams.module';
import { LoadReportsController } from './load-reports.controller';
import { LoadReportsService } from './load-reports.service';
import { SegmentLoadsRepository } from './segment-loads.repository';
import { SilenceSweep } from './silence-sweep.service';

/** Scaling by load: reports of segments' rates, acted on by the reference's rules. */
@Module({
  imports: [StreamsModule],
  controllers: [LoadReportsController],
  providers: [LoadReportsService, SegmentLoadsRepository, SilenceSweep],
})
export class AutoscaleModule {}
