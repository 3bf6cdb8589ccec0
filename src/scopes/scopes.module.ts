import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ScopesController } from './scopes.controller';
import { ScopesRepository } from './scopes.repository';
import { ScopesService } from './scopes.service';

@Module({
  imports: [AuditModule],
  controllers: [ScopesController],
  providers: [ScopesService, ScopesRepository],
  exports: [ScopesService],
})
export class ScopesModule {}
