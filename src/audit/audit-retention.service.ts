import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PeriodicPurge } from '../database/periodic-purge';
import { AuditRepository } from './audit.repository';

/**
 * Deletes the audit trail's events older than AUDIT_RETENTION_DAYS in the background
 * (docs/extensions.md section 12), every five minutes, oldest first, in batches of 1,000; the
 * batches of several instances skip each other's rows, so they share the work without waiting.
 */
@Injectable()
export class AuditRetention extends PeriodicPurge {
  constructor(records: AuditRepository, config: AppConfig) {
    super({
      what: 'expired audit events',
      intervalMs: 5 * 60_000,
      batchSize: 1000,
      batchesPerPass: 100,
      deleteBatch: (size) => records.deleteExpired(config.AUDIT_RETENTION_DAYS, size),
      logger: new Logger('AuditTrail'),
    });
  }
}
