import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScalingModule } from '../scaling/scaling.module';
import { ScopesModule } from '../scopes/scopes.module';
import { StreamEntity } from './stream.entity';
import { StreamsController } from './streams.controller';
import { StreamsRepository } from './streams.repository';
import { StreamsService } from './streams.service';

@Module({
  imports: [TypeOrmModule.forFeature([StreamEntity]), ScopesModule, ScalingModule],
  controllers: [StreamsController],
  providers: [StreamsService, StreamsRepository],
  exports: [StreamsService],
})
export class StreamsModule {}
