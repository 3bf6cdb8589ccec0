import { Module } from '@nestjs/common';
import { StreamHistoryService } from './stream-history.service';

@Module({ providers: [StreamHistoryService], exports: [StreamHistoryService] })
export class ScalingModule {}
