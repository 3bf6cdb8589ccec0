import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ScopesModule } from '../scopes/scopes.module';
import { SegmentsController } from './segments.controller';
import { SegmentsService } from './segments.service';
import { StreamsController } from './streams.controller';
import { StreamsRepository } from './streams.repository';
import { StreamsService } from './streams.service';

@Module({
  imports: [ScopesModule, AuditModule],
  controllers: [StreamsController, SegmentsController],
  providers: [StreamsService, SegmentsService, StreamsRepository],
  exports: [StreamsService],
})
export class StreamsModule {}
