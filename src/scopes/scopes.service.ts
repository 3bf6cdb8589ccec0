import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditService } from '../audit/audit.service';
import { scopeResource } from '../auth/resources';
import type { TagCondition } from '../common/conditional/entity-tag';
import {
  entityTagOf,
  requireMatch,
  ResourceVersion,
  Tagged,
} from '../common/conditional/resource-version';
import { DomainError } from '../common/errors/domain-error';
import { ListAnswer } from '../common/pagination/list-answer';
import type { PageQueryDto } from '../common/pagination/page-query.dto';
import { Paginator } from '../common/pagination/paginator';
import { Operation } from '../common/operations';
import type { Db } from '../database/db';
import { InjectDb } from '../database/db';
import { ScopePropertyDto } from './dto/scope-property.dto';
import { ScopesListDto } from './dto/scopes-list.dto';
import { ScopeNotFoundError } from './scope.errors';
import { ScopesRepository } from './scopes.repository';

@Injectable()
export class ScopesService {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly scopes: ScopesRepository,
    private readonly audit: AuditService,
    private readonly pages: Paginator,
  ) {}

  async create(actor: Actor, name: string): Promise<Tagged<ScopePropertyDto>> {
    const version = await this.db.withTransaction(async () => {
      const created = await this.scopes.insert(name);
      await this.audit.changed(actor, {
        operation: Operation.createScope,
        resource: scopeResource(name),
        after: { scopeName: name },
      });
      return created;
    });
    return { body: { scopeName: name }, etag: entityTagOf(version) };
  }

  async list(query: PageQueryDto): Promise<ListAnswer<ScopesListDto['scopes'][number]>> {
    const request = await this.pages.request<string>(['scopes'], query);
    const page = await this.pages.page(request, await this.scopes.names(request), (name) => name);
    return ListAnswer.of('scopes', page, (scopeName) => ({ scopeName }));
  }

  async get(name: string): Promise<Tagged<ScopePropertyDto>> {
    const version = await this.scopes.findVersion(name);
    if (!version) throw new ScopeNotFoundError(name);
    return { body: { scopeName: name }, etag: entityTagOf(version) };
  }

  /** Deletes an empty scope; its row is locked first, so `If-Match` sees what is deleted. */
  async delete(actor: Actor, name: string, condition?: TagCondition): Promise<void> {
    await this.db.withTransaction(async () => {
      const version = await this.scopes.lockVersion(name);
      if (!version) throw new ScopeNotFoundError(name);
      requireMatch(condition, `scope ${name}`, version);
      if (!(await this.scopes.delete(name))) throw new ScopeNotFoundError(name);
      await this.audit.changed(actor, {
        operation: Operation.deleteScope,
        resource: scopeResource(name),
      });
    });
  }

  /** The versions of those of the scopes that exist; `lock` holds them until the transaction ends. */
  versionsOf(names: string[], lock: boolean): Promise<Map<string, ResourceVersion>> {
    return this.scopes.versions(names, lock);
  }

  /** Throws {@link ScopeNotFoundError} unless the scope exists. */
  async assertExists(name: string): Promise<void> {
    if (!(await this.scopes.exists(name))) throw new ScopeNotFoundError(name);
  }

  /**
   * Runs an operation on something inside a scope. When it finds its target missing, the answer
   * names what is missing: the scope itself, or the thing in it.
   */
  async within<T>(scope: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not-found') {
        await this.assertExists(scope);
      }
      throw error;
    }
  }
}
