import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ScopePoliciesModule } from '../policies/scope-policies.module';
import { ScopesModule } from '../scopes/scopes.module';
import { SegmentsController } from './segments.controller';
import { SegmentsService } from './segments.service';
import { StreamPolicyChecks } from './stream-policy-checks.service';
import { StreamsController } from './streams.controller';
import { StreamsRepository } from './streams.repository';
import { StreamsService } from './streams.service';

@Module({
  imports: [ScopesModule, ScopePoliciesModule, AuditModule],
  controllers: [StreamsController, SegmentsController],
  providers: [StreamsService, SegmentsService, StreamsRepository, StreamPolicyChecks],
  exports: [StreamsService, SegmentsService],
})
export class StreamsModule {}
