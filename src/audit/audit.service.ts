import { Propagation } from '@nestjs-cls/transactional';
import { Injectable } from '@nestjs/common';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { Actor } from './actor';
import type { Keyset } from '../database/keyset';
import type { ListAnswer } from '../pagination/list-answer';
import { DEFAULT_PAGE_LIMIT, Paginator } from '../pagination/paginator';
import { AuditRepository } from './audit.repository';
import { ChangeRecorder } from './change-recorder.service';
import type { FeedEntry } from '../events/change-event';
import { AuditEventDto } from './dto/audit-event.dto';
import { AuditQueryDto } from './dto/audit-query.dto';

export interface AuditEntry {
  /** The operation's id ({@link Operation}), or a handler's name outside the API document. */
  operation: string;
  /** The resource it acted on, named as in ACLs (`prn::/scope:S/stream:T`). */
  resource: string;
  before?: object;
  after?: object;
}

/**
 * The audit trail. A change is recorded inside the transaction that makes it, so the two commit
 * or roll back together (`ChangeRecorder`); who asked is given by the caller, from the request's
 * edge.
 */
@Injectable()
export class AuditService {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly records: AuditRepository,
    private readonly recorder: ChangeRecorder,
    private readonly pages: Paginator,
  ) {}

  /**
   * Records a change and, when its resource is one of the change feed's, the feed's event
   * (`shown`: the resource after it, none after a delete). Called inside the change's
   * transaction; both are written at its commit, and only if it commits.
   */
  changed(actor: Actor, entry: AuditEntry, shown?: FeedEntry['shown']): void {
    this.recorder.record(
      { actor, ...entry, outcome: 'SUCCEEDED' },
      {
        operation: entry.operation,
        resource: entry.resource,
        principal: actor.principal,
        requestId: actor.requestId,
        shown,
      },
    );
  }

  /**
   * Records a request refused to an authenticated principal (403), one row each: it names who
   * asked. A refusal changed nothing, so it needs no transaction, and it must not join one: the
   * refusal rolls back the request's transaction (an apply, a request with an Idempotency-Key),
   * and the record of it must stay.
   */
  denied(actor: Actor, entry: AuditEntry): Promise<void> {
    return this.db.withTransaction(Propagation.NotSupported, () =>
      this.records.insert({ actor, ...entry, outcome: 'DENIED' }),
    );
  }

  /**
   * Records a request refused for want of valid credentials (401), outside any transaction as
   * {@link denied}. Anyone can send those, as many as they like, so they are counted rather
   * than kept one each: one row per client address and minute, with the first one's details.
   */
  unauthenticated(actor: Actor, entry: AuditEntry): Promise<void> {
    return this.db.withTransaction(Propagation.NotSupported, () =>
      this.records.countDenial({ actor, ...entry, outcome: 'DENIED' }),
    );
  }

  /**
   * The newest `take` scales by load of a resource since `since` (ms since 1970), newest first:
   * what a reader of the stream may see of its trail, where the whole trail takes the root's
   * right.
   */
  latestScalesByLoad(resource: string, since: number, take: number): Promise<AuditEventDto[]> {
    return this.records.latestScalesByLoad(resource, since, take);
  }

  /** Newest first: a page with `limit` or `continuationToken`, else the newest 100. */
  async list(query: AuditQueryDto): Promise<ListAnswer<AuditEventDto>> {
    const { from, to, resource, principal } = query;
    const filter = { from, to, resource, principal };
    const request = await this.pages.request<number>(['audit', filter], query);
    const rows = {
      read: (keyset: Keyset<number>) => this.records.find(filter, keyset),
      positionOf: (event: AuditEventDto) => event.id,
    };
    return this.pages.answer('auditEvents', request, rows, (event) => event, {
      first: DEFAULT_PAGE_LIMIT,
    });
  }
}
