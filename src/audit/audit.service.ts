import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { currentRequest } from '../common/http/request-context';
import { AuditEventDto } from './dto/audit-event.dto';
import { AuditQueryDto } from './dto/audit-query.dto';

export interface AuditEntry {
  /** The operation's id in the API document (`createScope`, `updateStream`, ...). */
  operation: string;
  /** The resource it acted on, named as in ACLs (`prn::/scope:S/stream:T`). */
  resource: string;
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
  outcome: 'SUCCEEDED' | 'DENIED';
  before: object | null;
  after: object | null;
}

const INSERT = `INSERT INTO audit_events
  (principal, client_address, user_agent, request_id, operation, resource, outcome, before, after)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

/**
 * The audit trail. A change is recorded by the transaction that makes it, so the two commit
 * or roll back together; who asked comes from the request being served.
 */
@Injectable()
export class AuditService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records a change inside its own transaction. */
  async changed(tx: EntityManager, entry: AuditEntry): Promise<void> {
    await tx.query(INSERT, this.values(entry, 'SUCCEEDED'));
  }

  /** Records a refused request (it changed nothing, so it needs no transaction). */
  async denied(entry: AuditEntry): Promise<void> {
    await this.dataSource.query(INSERT, this.values(entry, 'DENIED'));
  }

  /** Newest first, within the query's filters. */
  async list(query: AuditQueryDto): Promise<AuditEventDto[]> {
    const rows = await this.dataSource.query<AuditRow[]>(
      `SELECT * FROM audit_events
        WHERE ($1::bigint IS NULL OR at >= to_timestamp($1::bigint / 1000.0))
          AND ($2::bigint IS NULL OR at <= to_timestamp($2::bigint / 1000.0))
          AND ($3::text IS NULL OR resource = $3)
          AND ($4::text IS NULL OR principal = $4)
        ORDER BY at DESC, id DESC
        LIMIT $5`,
      [
        query.from ?? null,
        query.to ?? null,
        query.resource ?? null,
        query.principal ?? null,
        query.limit,
      ],
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

  private values(entry: AuditEntry, outcome: AuditRow['outcome']): unknown[] {
    const req = currentRequest();
    return [
      req?.principal ?? 'anonymous',
      req?.ip ?? null,
      req?.headers['user-agent']?.slice(0, 512) ?? null,
      req?.id ?? null,
      entry.operation,
      entry.resource,
      outcome,
      entry.before ? JSON.stringify(entry.before) : null,
      entry.after ? JSON.stringify(entry.after) : null,
    ];
  }
}
