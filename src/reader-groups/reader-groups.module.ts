import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ScopesModule } from '../scopes/scopes.module';
import { StreamsModule } from '../streams/streams.module';
import { ReaderGroupsController } from './reader-groups.controller';
import { ReaderGroupsRepository } from './reader-groups.repository';
import { ReaderGroupsService } from './reader-groups.service';

@Module({
  imports: [ScopesModule, StreamsModule, AuditModule],
  controllers: [ReaderGroupsController],
  providers: [ReaderGroupsService, ReaderGroupsRepository],
  exports: [ReaderGroupsService],
})
export class ReaderGroupsModule {}
