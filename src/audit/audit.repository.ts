import { Injectable } from '@nestjs/common';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { Keyset } from '../database/keyset';
import type { Actor } from './actor';
import { AuditEventDto } from './dto/audit-event.dto';
import type { AuditFilter } from './dto/audit-query.dto';

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

interface AuditRow {
  id: string;
  at: Date;
  principal: string;
  client_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  operation: string;
  resource: string;
  outcome: AuditOutcome;
  before: object | null;
  after: object | null;
}

/** Every statement of the audit_events table; writes join the current transaction. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  async insert(record: AuditRecord): Promise<void> {
    const { actor } = record;
    await this.db.tx.query(
      `INSERT INTO audit_events
         (principal, client_address, user_agent, request_id, operation, resource, outcome, before, after)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        actor.principal,
        actor.clientAddress,
        actor.userAgent,
        actor.requestId,
        record.operation,
        record.resource,
        record.outcome,
        record.before ? JSON.stringify(record.before) : null,
        record.after ? JSON.stringify(record.after) : null,
      ],
    );
  }

  /**
   * Newest first, within the filters: `take` events, after the event `after` (by id) when given.
   * Events are never changed or deleted, so an id stands for its place in the order.
   */
  async find(filter: AuditFilter, page: Keyset<number>): Promise<AuditEventDto[]> {
    const params: unknown[] = [
      filter.from ?? null,
      filter.to ?? null,
      filter.resource ?? null,
      filter.principal ?? null,
      page.take,
    ];
    const after =
      page.after === undefined
        ? ''
        : `AND (at, id) < ((SELECT at FROM audit_events WHERE id = $${params.push(page.after)}), $${params.length})`;
    const rows = await this.db.tx.query<AuditRow[]>(
      `SELECT * FROM audit_events
        WHERE ($1::bigint IS NULL OR at >= to_timestamp($1::bigint / 1000.0))
          AND ($2::bigint IS NULL OR at <= to_timestamp($2::bigint / 1000.0))
          AND ($3::text IS NULL OR resource = $3)
          AND ($4::text IS NULL OR principal = $4)
          ${after}
        ORDER BY at DESC, id DESC
        LIMIT $5`,
      params,
    );
    return rows.map((row) => ({
      id: Number(row.id),
      time: row.at.getTime(),
      principal: row.principal,
      clientAddress: row.client_address ?? undefined,
      userAgent: row.user_agent ?? undefined,
      requestId: row.request_id ?? undefined,
      operation: row.operation,
      resource: row.resource,
      outcome: row.outcome,
      before: row.before ?? undefined,
      after: row.after ?? undefined,
    }));
  }
}
