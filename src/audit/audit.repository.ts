import { Injectable } from '@nestjs/common';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { Keyset } from '../database/keyset';
import type { Actor } from './actor';
import { AuditEventDto } from './dto/audit-event.dto';
import type { AuditFilter } from './dto/audit-query.dto';
import { AuditEventEntity } from './audit-event.entity';

export type AuditOutcome = 'SUCCEEDED' | 'DENIED';

/** One record of the audit trail, as written. */
export interface AuditRecord {
  actor: Actor;
  operation: string;
  resource: string;
  outcome: AuditOutcome;
  before?: object;
  after?: object;
}

/** Every statement of the audit_events table; writes join the current transaction. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get events() {
    return this.db.tx.getRepository(AuditEventEntity);
  }

  /**
   * Writes a record. In a change's transaction, the row exists if and only if the change
   * committed; a refusal, outside any transaction, is written at once.
   */
  async insert(record: AuditRecord): Promise<void> {
    const { actor } = record;
    await this.events
      .createQueryBuilder()
      .insert()
      .values({
        principal: actor.principal,
        clientAddress: actor.clientAddress,
        userAgent: actor.userAgent,
        requestId: actor.requestId,
        operation: record.operation,
        resource: record.resource,
        outcome: record.outcome,
        before: record.before ?? null,
        after: record.after ?? null,
      })
      .updateEntity(false)
      .execute();
  }

  /**
   * Newest first, within the filters: `take` events, after the event `after` (by id) when given.
   * Events are never changed, so an id stands for its place in the order.
   */
  async find(filter: AuditFilter, page: Keyset<number>): Promise<AuditEventDto[]> {
    const query = this.events.createQueryBuilder('a');
    if (filter.from !== undefined) {
      query.andWhere('a.at >= to_timestamp(:from::bigint / 1000.0)', { from: filter.from });
    }
    if (filter.to !== undefined) {
      query.andWhere('a.at <= to_timestamp(:to::bigint / 1000.0)', { to: filter.to });
    }
    if (filter.resource !== undefined) {
      query.andWhere('a.resource = :resource', { resource: filter.resource });
    }
    if (filter.principal !== undefined) {
      query.andWhere('a.principal = :principal', { principal: filter.principal });
    }
    if (page.after !== undefined) {
      // The order is (at, id), newest first: after an event is before its instant and id.
      query.andWhere('(a.at, a.id) < ((SELECT at FROM audit_events WHERE id = :after), :after)', {
        after: page.after,
      });
    }
    const rows = await query
      .orderBy('a.at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .limit(page.take)
      .getMany();
    return rows.map((row) => ({
      id: Number(row.id),
      time: row.at.getTime(),
      principal: row.principal,
      clientAddress: row.clientAddress ?? undefined,
      userAgent: row.userAgent ?? undefined,
      requestId: row.requestId ?? undefined,
      operation: row.operation,
      resource: row.resource,
      outcome: row.outcome,
      before: row.before ?? undefined,
      after: row.after ?? undefined,
    }));
  }
}
