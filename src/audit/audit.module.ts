import { Module } from '@nestjs/common';
import { FeedWriterModule } from '../events/feed-writer.module';
import { AuditController } from './audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditRetention } from './audit-retention.service';
import { AuditService } from './audit.service';
import { AuditedChanges } from './audited-changes.service';
import { ChangeRecorder } from './change-recorder.service';

@Module({
  imports: [FeedWriterModule],
  controllers: [AuditController],
  providers: [AuditService, AuditRepository, AuditedChanges, AuditRetention, ChangeRecorder],
  exports: [AuditService, AuditedChanges],
})
export class AuditModule {}
