import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { ResourceVersion } from '../conditional/resource-version';
import { RETURNING_VERSION, versionOf } from '../database/column-transformers';
import { translateViolations } from '../database/constraint-violations';
import { byKeyset, Keyset } from '../database/keyset';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { InsertRows, ReadByKey } from '../database/statements-built-once';
import { ScopeExistsError, ScopeNotEmptyError } from './scope.errors';
import { ScopeEntity } from './scope.entity';

/**
 * The read of every GET of a scope (its entity tag alone: its creation time, parsed into a
 * `Date`, would cost more than the rest) and the insert of every create (docs/ARCHITECTURE.md).
 */
const BY_NAME = new ReadByKey(ScopeEntity, ['name'], { properties: ['created', 'version'] });
const INSERT = new InsertRows(ScopeEntity, ['name'], RETURNING_VERSION);

/** Every statement of the scopes table; each joins the current transaction, if any. */
@Injectable()
export class ScopesRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get scopes() {
    return this.db.tx.getRepository(ScopeEntity);
  }

  exists(name: string): Promise<boolean> {
    return this.scopes.existsBy({ name });
  }

  /** Names in order, a batch or a page after a name (one range scan of the key). */
  async names(keyset: Keyset<string>): Promise<string[]> {
    const query = this.scopes.createQueryBuilder('s').select('s.name', 'name');
    const rows = await byKeyset(query, 's.name', keyset).getRawMany<{ name: string }>();
    return rows.map((row) => row.name);
  }

  /** The scope's version, or undefined when there is no such scope. */
  async findVersion(name: string): Promise<ResourceVersion | undefined> {
    const scope = await BY_NAME.one(this.db.tx, [name]);
    return scope ? versionOf(scope) : undefined;
  }

  /** Like {@link findVersion}, and locks the scope's row until the current transaction ends. */
  async lockVersion(name: string): Promise<ResourceVersion | undefined> {
    const scope = await this.scopes.findOne({
      where: { name },
      lock: { mode: 'pessimistic_write' },
    });
    return scope ? versionOf(scope) : undefined;
  }

  /**
   * The versions of those of the scopes that exist. With `lock`, two transactions that both
   * lock a scope this way take turns, while changes inside the scope go on.
   */
  async versions(names: string[], lock: boolean): Promise<Map<string, ResourceVersion>> {
    if (names.length === 0) return new Map();
    const scopes = await this.scopes.find({
      where: { name: In(names) },
      order: { name: 'ASC' },
      ...(lock && { lock: { mode: 'for_no_key_update' } }),
    });
    return new Map(scopes.map((scope) => [scope.name, versionOf(scope)]));
  }

  /** Creates the scope; the version of the new scope. */
  insert(name: string): Promise<ResourceVersion> {
    return translateViolations({ unique: () => new ScopeExistsError(name) }, async () => {
      const [inserted] = await INSERT.run<ResourceVersion>(this.db.tx, [{ name }]);
      return inserted;
    });
  }

  /** Deletes the scope; the foreign keys of its streams and groups refuse one in use. */
  delete(name: string): Promise<void> {
    return translateViolations({ foreignKey: () => new ScopeNotEmptyError(name) }, async () => {
      await this.scopes.delete({ name });
    });
  }
}
