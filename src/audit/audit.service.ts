import { Injectable } from '@nestjs/common';
import type { Actor } from './actor';
import { pageBody } from '../common/pagination/page-body';
import { DEFAULT_PAGE_LIMIT, Paginator } from '../common/pagination/paginator';
import { AuditRepository } from './audit.repository';
import { AuditEventsListDto } from './dto/audit-event.dto';
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
 * or roll back together; who asked is given by the caller, from the request's edge.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly records: AuditRepository,
    private readonly pages: Paginator,
  ) {}

  /** Records a change; called inside the change's transaction. */
  changed(actor: Actor, entry: AuditEntry): Promise<void> {
    return this.records.insert({ actor, ...entry, outcome: 'SUCCEEDED' });
  }

  /** Records a refused request (it changed nothing, so it needs no transaction). */
  denied(actor: Actor, entry: AuditEntry): Promise<void> {
    return this.records.insert({ actor, ...entry, outcome: 'DENIED' });
  }

  /** Newest first: a page with `limit` or `continuationToken`, else the newest 100. */
  async list(query: AuditQueryDto): Promise<AuditEventsListDto> {
    const { from, to, resource, principal } = query;
    const filter = { from, to, resource, principal };
    const request = await this.pages.request<number>(['audit', filter], query);
    const events = await this.records.find(filter, request ?? { take: DEFAULT_PAGE_LIMIT });
    const page = await this.pages.page(request, events, (event) => event.id);
    return pageBody('auditEvents', page, (event) => event);
  }
}
