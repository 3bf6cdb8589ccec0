import { Injectable } from '@nestjs/common';
import { escapeLiteral } from 'pg';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { Keyset } from '../database/keyset';
import type { Actor } from './actor';
import { auditText } from './audit-text';
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
  request_count: number;
}

/** A text value as an escaped literal, or NULL. */
const literal = (value: string | null | undefined): string =>
  value === null || value === undefined ? 'NULL' : escapeLiteral(value);

/** An indexed text as an escaped literal: shortened when too long to index (`auditText`). */
const indexedLiteral = (value: string | null): string =>
  literal(value === null ? null : auditText(value));

const COLUMNS =
  'principal, client_address, user_agent, request_id, operation, resource, outcome, before, after';

/** The values of a record, in the order of {@link COLUMNS}, each an escaped literal. */
function valuesOf(record: AuditRecord): string {
  const { actor } = record;
  return [
    indexedLiteral(actor.principal),
    indexedLiteral(actor.clientAddress),
    literal(actor.userAgent),
    literal(actor.requestId),
    literal(record.operation),
    indexedLiteral(record.resource),
    literal(record.outcome),
    literal(record.before && JSON.stringify(record.before)),
    literal(record.after && JSON.stringify(record.after)),
  ].join(', ');
}

/** Every statement of the audit_events table; writes join the current transaction. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  /**
   * Writes a record. In a change's transaction it goes with the COMMIT, in its round trip (as
   * the change feed's events do), so the row exists if and only if the change committed; a
   * refusal, outside any transaction, is written at once. The statement has no parameters:
   * every value is an escaped literal.
   */
  async insert(record: AuditRecord): Promise<void> {
    const statement = `INSERT INTO audit_events (${COLUMNS}) VALUES (${valuesOf(record)})`;
    const tx = this.db.tx;
    if (tx.withCommit) tx.withCommit(() => statement);
    else await tx.query(statement);
  }

  /**
   * Counts a refusal in the row of its client address and minute (by the database's clock, in
   * UTC), which the first refusal of that minute writes with its own details. The unique index
   * of migration AuditDenialCounts makes concurrent counts, from any instance, add up.
   */
  async countDenial(record: AuditRecord): Promise<void> {
    await this.db.tx.query(
      `INSERT INTO audit_events (at, denial_minute, ${COLUMNS})
       SELECT moment.at, date_trunc('minute', moment.at, 'UTC'), ${valuesOf(record)}
         FROM (SELECT clock_timestamp() AS at) moment
       ON CONFLICT ((COALESCE(client_address, '')), denial_minute)
          WHERE denial_minute IS NOT NULL
       DO UPDATE SET request_count = audit_events.request_count + 1`,
    );
  }

  /**
   * Newest first, within the filters: `take` events, after the event `after` (by id) when given.
   * An event's time never changes (a counted one only counts more) and events are deleted only
   * from the oldest end (retention), so an id stands for its place in the order; a deleted one
   * had only deleted events after it.
   */
  async find(filter: AuditFilter, page: Keyset<number>): Promise<AuditEventDto[]> {
    const params: unknown[] = [
      filter.from ?? null,
      filter.to ?? null,
      // Named as stored: a long name finds its shortened row.
      filter.resource === undefined ? null : auditText(filter.resource),
      filter.principal === undefined ? null : auditText(filter.principal),
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
      count: row.request_count,
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

  /**
   * Deletes at most `limit` events older than `days` days, oldest first (the time index read
   * from its old end, each row then reached by its ctid, whatever the table's size); how many
   * it deleted. Concurrent purges skip each other's rows.
   */
  async deleteExpired(days: number, limit: number): Promise<number> {
    const [{ deleted }] = await this.db.tx.query<Array<{ deleted: number }>>(
      `WITH gone AS (
         DELETE FROM audit_events
          WHERE ctid IN (SELECT ctid FROM audit_events
                          WHERE at < now() - make_interval(days => $1)
                          ORDER BY at, id
                          LIMIT $2
                          FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS deleted FROM gone`,
      [days, limit],
    );
    return deleted;
  }
}
