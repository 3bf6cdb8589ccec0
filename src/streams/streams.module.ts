import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ScopesModule } from '../scopes/scopes.module';
import { StreamsController } from './streams.controller';
import { StreamsRepository } from './streams.repository';
import { StreamsService } from './streams.service';

@Module({
  imports: [ScopesModule, AuditModule],
  controllers: [StreamsController],
  providers: [StreamsService, StreamsRepository],
  exports: [StreamsService, StreamsRepository],
})
export class StreamsModule {}
