import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ScopePoliciesModule } from '../policies/scope-policies.module';
import { ReaderGroupsModule } from '../reader-groups/reader-groups.module';
import { ScopesModule } from '../scopes/scopes.module';
import { StreamsModule } from '../streams/streams.module';
import { ApplyController } from './apply.controller';
import { ApplyService } from './apply.service';

@Module({
  imports: [ScopesModule, StreamsModule, ReaderGroupsModule, AuditModule, ScopePoliciesModule],
  controllers: [ApplyController],
  providers: [ApplyService],
})
export class ApplyModule {}
