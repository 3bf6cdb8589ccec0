import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { scopeResource } from '../auth/resources';
import { isForeignKeyViolation, PgCode, sqlState } from '../common/errors/postgres-errors';
import { ScopePropertyDto } from './dto/scope-property.dto';
import { ScopesListDto } from './dto/scopes-list.dto';
import { ScopeEntity } from './scope.entity';
import { ScopeExistsError, ScopeNotEmptyError, ScopeNotFoundError } from './scope.errors';

const toScopeProperty = (scope: ScopeEntity): ScopePropertyDto => ({ scopeName: scope.name });

@Injectable()
export class ScopesService {
  constructor(
    @InjectRepository(ScopeEntity) private readonly scopes: Repository<ScopeEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  async create(name: string): Promise<ScopePropertyDto> {
    try {
      await this.dataSource.transaction(async (tx) => {
        await tx.insert(ScopeEntity, { name });
        await this.audit.changed(tx, {
          operation: 'createScope',
          resource: scopeResource(name),
          after: { scopeName: name },
        });
      });
    } catch (error) {
      if (sqlState(error) === PgCode.uniqueViolation) throw new ScopeExistsError(name);
      throw error;
    }
    return { scopeName: name };
  }

  async list(): Promise<ScopesListDto> {
    const scopes = await this.scopes.find({ select: { name: true }, order: { name: 'ASC' } });
    return { scopes: scopes.map(toScopeProperty) };
  }

  async get(name: string): Promise<ScopePropertyDto> {
    if (!(await this.exists(name))) throw new ScopeNotFoundError(name);
    return { scopeName: name };
  }

  /** The foreign keys of streams and reader groups refuse a scope in use. */
  async delete(name: string): Promise<void> {
    try {
      await this.dataSource.transaction(async (tx) => {
        const deleted = (await tx.delete(ScopeEntity, { name })).affected;
        if (!deleted) throw new ScopeNotFoundError(name);
        await this.audit.changed(tx, { operation: 'deleteScope', resource: scopeResource(name) });
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new ScopeNotEmptyError(name);
      throw error;
    }
  }

  /** Throws {@link ScopeNotFoundError} unless the scope exists. */
  async assertExists(name: string): Promise<void> {
    if (!(await this.exists(name))) throw new ScopeNotFoundError(name);
  }

  /** A hot path (every read of a scope's content that finds nothing asks it): plain SQL. */
  private async exists(name: string): Promise<boolean> {
    const rows = await this.scopes.query<unknown[]>('SELECT 1 FROM scopes WHERE name = $1', [name]);
    return rows.length > 0;
  }
}
