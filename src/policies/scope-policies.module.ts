import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ScopesModule } from '../scopes/scopes.module';
import { ScopePoliciesController } from './scope-policies.controller';
import { ScopePoliciesRepository } from './scope-policies.repository';
import { ScopePoliciesService } from './scope-policies.service';

@Module({
  imports: [AuditModule, ScopesModule],
  controllers: [ScopePoliciesController],
  providers: [ScopePoliciesService, ScopePoliciesRepository],
  exports: [ScopePoliciesRepository, ScopePoliciesService],
})
export class ScopePoliciesModule {}
