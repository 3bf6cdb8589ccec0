import { Module } from '@nestjs/common';
import { ScopesModule } from '../scopes/scopes.module';
import { StreamsModule } from '../streams/streams.module';
import { ReaderGroupsController } from './reader-groups.controller';
import { ReaderGroupsService } from './reader-groups.service';

@Module({
  imports: [ScopesModule, StreamsModule],
  controllers: [ReaderGroupsController],
  providers: [ReaderGroupsService],
})
export class ReaderGroupsModule {}
