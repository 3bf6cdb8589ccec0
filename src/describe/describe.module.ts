import { Module } from '@nestjs/common';
import { ReaderGroupsModule } from '../reader-groups/reader-groups.module';
import { StreamsModule } from '../streams/streams.module';
import { DescribeController } from './describe.controller';
import { DescribeService } from './describe.service';

/** Describing a stream: an answer made of what the streams and the reader groups know. */
@Module({
  imports: [StreamsModule, ReaderGroupsModule],
  controllers: [DescribeController],
  providers: [DescribeService],
})
export class DescribeModule {}
