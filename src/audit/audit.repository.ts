import { Injectable } from '@nestjs/common';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { Statement } from '../database/with-commit';
import { deleteOldest } from '../database/delete-oldest';
import type { Keyset } from '../database/keyset';
import { Operation } from '../common/operations';
import type { Actor } from './actor';
import { AuditEventEntity } from './audit-event.entity';
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

/**
 * A record's columns, named as in the table; the indexed texts shortened when too long to index
 * (`auditText`).
 */
function columnsOf(record: AuditRecord) {
  const { actor } = record;
  return {
    principal: auditText(actor.principal),
    client_address: actor.clientAddress === null ? null : auditText(actor.clientAddress),
    user_agent: actor.userAgent,
    request_id: actor.requestId,
    operation: record.operation,
    resource: auditText(record.resource),
    outcome: record.outcome,
    before: record.before ?? null,
    after: record.after ?? null,
  };
}

/** The insert of records from one JSON list of rows ($1), oldest first. */
const INSERT_ROWS = `INSERT INTO audit_events
               (principal, client_address, user_agent, request_id, operation, resource, outcome,
                before, after)
             SELECT r.principal, r.client_address, r.user_agent, r.request_id, r.operation,
                    r.resource, r.outcome, r.before, r.after
               FROM ROWS FROM (json_to_recordset($1::json) AS (
                      principal text, client_address text, user_agent text, request_id text,
                      operation text, resource text, outcome text, before jsonb, after jsonb))
                    WITH ORDINALITY AS r (principal, client_address, user_agent, request_id,
                                          operation, resource, outcome, before, after, n)
              ORDER BY r.n`;

/** Every statement of the audit_events table; writes join the current transaction. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get events() {
    return this.db.tx.getRepository(AuditEventEntity);
  }

  /** Writes a record now: a refusal, outside any transaction, or a test's. */
  async insert(record: AuditRecord): Promise<void> {
    const { text, values } = this.inserted([record]);
    await this.db.tx.query(text, values);
  }

  /**
   * The insert of records, oldest first, for the caller to send: a change's records go with its
   * transaction's COMMIT (`audit/change-recorder.service.ts`). SQL of its own: one statement of
   * any number of rows from one parameter, which the repository API would write with a
   * parameter per column and row, built anew each time.
   */
  inserted(records: readonly AuditRecord[]): Statement {
    // One JSON parameter (a row per record, named as the columns): serialized once, where a
    // list per column would be escaped element by element.
    return { text: INSERT_ROWS, values: [JSON.stringify(records.map(columnsOf))] };
  }

  /**
   * Counts a refusal in the row of its client address and minute (by the database's clock, in
   * UTC), which the first refusal of that minute writes with its own details. The unique index
   * of migration AuditDenialCounts makes concurrent counts, from any instance, add up. Through
   * `query`: an upsert on an expression index that adds to the row, which TypeORM's `orUpdate`
   * (a column set to the excluded value) cannot say.
   */
  async countDenial(record: AuditRecord): Promise<void> {
    const c = columnsOf(record);
    await this.db.tx.query(
      `INSERT INTO audit_events
              (at, denial_minute, principal, client_address, user_agent, request_id, operation,
               resource, outcome, before, after)
       SELECT moment.at, date_trunc('minute', moment.at, 'UTC'), $1, $2, $3, $4, $5, $6, $7, $8, $9
         FROM (SELECT clock_timestamp() AS at) moment
       ON CONFLICT ((COALESCE(client_address, '')), denial_minute)
          WHERE denial_minute IS NOT NULL
       DO UPDATE SET request_count = audit_events.request_count + 1`,
      [
        c.principal,
        c.client_address,
        c.user_agent,
        c.request_id,
        c.operation,
        c.resource,
        c.outcome,
        c.before,
        c.after,
      ],
    );
  }

  /**
   * Newest first, within the filters: `take` events, after the event `after` (by id) when given.
   * An event's time never changes (a counted one only counts more) and events are deleted only
   * from the oldest end (retention), so an id stands for its place in the order; a deleted one
   * had only deleted events after it.
   */
  async find(filter: AuditFilter, page: Keyset<number>): Promise<AuditEventDto[]> {
    const query = this.events.createQueryBuilder('a');
    if (filter.from !== undefined) {
      query.andWhere('a.at >= to_timestamp(:from::bigint / 1000.0)', { from: filter.from });
    }
    if (filter.to !== undefined) {
      query.andWhere('a.at <= to_timestamp(:to::bigint / 1000.0)', { to: filter.to });
    }
    // Named as stored: a long name finds its shortened row.
    if (filter.resource !== undefined) {
      query.andWhere('a.resource = :resource', { resource: auditText(filter.resource) });
    }
    if (filter.principal !== undefined) {
      query.andWhere('a.principal = :principal', { principal: auditText(filter.principal) });
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
    return rows.map(toAuditEventDto);
  }

  /**
   * The newest `take` scales by load of `resource` since `since` (ms since 1970), newest first:
   * along the partial index of migration LoadScalesIndex, whose condition the statement states
   * in the same words (a parameter in its place would not let the planner choose the index).
   */
  async latestScalesByLoad(
    resource: string,
    since: number,
    take: number,
  ): Promise<AuditEventDto[]> {
    const rows = await this.events
      .createQueryBuilder('a')
      .where('a.resource = :resource', { resource: auditText(resource) })
      .andWhere('a.at >= to_timestamp(:since::bigint / 1000.0)', { since })
      .andWhere(`a.operation = '${Operation.reportLoad}' AND a.outcome = 'SUCCEEDED'`)
      .orderBy('a.at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .limit(take)
      .getMany();
    return rows.map(toAuditEventDto);
  }

  /**
   * Deletes at most `limit` events older than `days` days, oldest first; how many it deleted.
   */
  deleteExpired(days: number, limit: number): Promise<number> {
    return deleteOldest(this.events, (old) =>
      old
        .where('old.at < now() - make_interval(days => :days)', { days })
        .orderBy('old.at')
        .addOrderBy('old.id')
        .limit(limit),
    );
  }
}

function toAuditEventDto(row: AuditEventEntity): AuditEventDto {
  return {
    id: Number(row.id),
    time: row.at.getTime(),
    count: row.requestCount,
    principal: row.principal,
    clientAddress: row.clientAddress ?? undefined,
    userAgent: row.userAgent ?? undefined,
    requestId: row.requestId ?? undefined,
    operation: row.operation,
    resource: row.resource,
    outcome: row.outcome,
    before: row.before ?? undefined,
    after: row.after ?? undefined,
  };
}
