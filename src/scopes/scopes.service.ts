import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditedChanges } from '../audit/audited-changes.service';
import { scopeResource } from '../auth/resources';
import { DomainError } from '../common/domain-error';
import { Operation } from '../common/operations';
import type { TagCondition } from '../conditional/entity-tag';
import { ResourceVersion, Tagged } from '../conditional/resource-version';
import { ListAnswer } from '../pagination/list-answer';
import type { PageQueryDto } from '../pagination/page-query.dto';
import { Paginator } from '../pagination/paginator';
import { ScopePropertyDto } from './dto/scope-property.dto';
import { ScopeNotFoundError } from './scope.errors';
import { ScopesRepository } from './scopes.repository';

@Injectable()
export class ScopesService {
  constructor(
    private readonly scopes: ScopesRepository,
    private readonly changes: AuditedChanges,
    private readonly pages: Paginator,
  ) {}

  create(actor: Actor, name: string): Promise<Tagged<ScopePropertyDto>> {
    return this.changes.create(actor, async () => {
      const body = { scopeName: name };
      const created = Tagged.of(body, await this.scopes.insert(name));
      return {
        result: created,
        audit: { operation: Operation.createScope, resource: scopeResource(name), after: body },
        shown: () => Promise.resolve(created),
      };
    });
  }

  /** A page of the scopes, or all of them, read in batches while the answer is sent. */
  async list(query: PageQueryDto): Promise<ListAnswer<ScopePropertyDto>> {
    const request = await this.pages.request<string>(['scopes'], query);
    const rows = { read: this.scopes.names.bind(this.scopes), positionOf: (name: string) => name };
    return this.pages.answer('scopes', request, rows, (scopeName) => ({ scopeName }));
  }

  async get(name: string): Promise<Tagged<ScopePropertyDto>> {
    const version = await this.scopes.findVersion(name);
    if (!version) throw new ScopeNotFoundError(name);
    return Tagged.of({ scopeName: name }, version);
  }

  /** Deletes an empty scope; its row is locked first, so `If-Match` sees what is deleted. */
  delete(actor: Actor, name: string, condition?: TagCondition): Promise<void> {
    const target = {
      what: `scope ${name}`,
      lock: () => this.scopes.lockVersion(name),
      missing: () => new ScopeNotFoundError(name),
      version: (version: ResourceVersion) => version,
    };
    return this.changes.change(actor, target, condition, async () => {
      await this.scopes.delete(name);
      return {
        result: undefined,
        audit: { operation: Operation.deleteScope, resource: scopeResource(name) },
      };
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
