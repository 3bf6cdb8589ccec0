import { Module } from '@nestjs/common';
import { ScopesModule } from '../scopes/scopes.module';
import { StreamsModule } from '../streams/streams.module';
import { ScopeComplianceController } from './scope-compliance.controller';
import { ScopeComplianceService } from './scope-compliance.service';
import { ScopePoliciesModule } from './scope-policies.module';

/** Apart from the policies' module, which the streams' module needs: this one needs streams. */
@Module({
  imports: [ScopesModule, ScopePoliciesModule, StreamsModule],
  controllers: [ScopeComplianceController],
  providers: [ScopeComplianceService],
})
export class ScopeComplianceModule {}
