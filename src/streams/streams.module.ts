import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopesModule } from '../scopes/scopes.module';
import { StreamEntity } from './stream.entity';
import { StreamsController } from './streams.controller';
import { StreamsService } from './streams.service';

@Module({
  imports: [TypeOrmModule.forFeature([StreamEntity]), ScopesModule],
  controllers: [StreamsController],
  providers: [StreamsService],
})
export class StreamsModule {}
