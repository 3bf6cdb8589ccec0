import { Injectable } from '@nestjs/common';
import { Keyset, keysetClauses } from '../database/keyset';
import { translateViolations } from '../database/constraint-violations';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { versionColumns } from '../database/version-columns';
import type { ResourceVersion } from '../conditional/resource-version';
import { ScopeExistsError, ScopeNotEmptyError } from './scope.errors';

/** Every statement of the scopes table; each joins the current transaction, if any. */
@Injectable()
export class ScopesRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  async exists(name: string): Promise<boolean> {
    const rows = await this.db.tx.query<unknown[]>('SELECT 1 FROM scopes WHERE name = $1', [name]);
    return rows.length > 0;
  }

  /** Names in order, a batch or a page after a name (one range scan of the key). */
  async names(keyset: Keyset<string>): Promise<string[]> {
    const params: unknown[] = [];
    const { after, orderAndLimit } = keysetClauses(params, keyset);
    const rows = await this.db.tx.query<{ name: string }[]>(
      `SELECT name FROM scopes WHERE ${after} ${orderAndLimit}`,
      params,
    );
    return rows.map((row) => row.name);
  }

  /** The scope's version, or undefined when there is no such scope. */
  async findVersion(name: string): Promise<ResourceVersion | undefined> {
    const [row] = await this.db.tx.query<ResourceVersion[]>(
      `SELECT ${versionColumns()} FROM scopes WHERE name = $1`,
      [name],
    );
    return row;
  }

  /** Like {@link findVersion}, and locks the scope's row until the current transaction ends. */
  async lockVersion(name: string): Promise<ResourceVersion | undefined> {
    const [row] = await this.db.tx.query<ResourceVersion[]>(
      `SELECT ${versionColumns()} FROM scopes WHERE name = $1 FOR UPDATE`,
      [name],
    );
    return row;
  }

  /**
   * The versions of those of the scopes that exist. With `lock`, two transactions that both
   * lock a scope this way take turns, while changes inside the scope go on.
   */
  async versions(names: string[], lock: boolean): Promise<Map<string, ResourceVersion>> {
    const rows = await this.db.tx.query<(ResourceVersion & { name: string })[]>(
      `SELECT name, ${versionColumns()} FROM scopes WHERE name = ANY($1::text[])
        ORDER BY name${lock ? ' FOR NO KEY UPDATE' : ''}`,
      [names],
    );
    return new Map(rows.map(({ name, created, version }) => [name, { created, version }]));
  }

  /** Creates the scope; the version of the new scope. */
  insert(name: string): Promise<ResourceVersion> {
    return translateViolations({ unique: () => new ScopeExistsError(name) }, async () => {
      const [row] = await this.db.tx.query<ResourceVersion[]>(
        `INSERT INTO scopes (name) VALUES ($1) RETURNING ${versionColumns()}`,
        [name],
      );
      return row;
    });
  }

  /** Deletes the scope; the foreign keys of its streams and groups refuse one in use. */
  delete(name: string): Promise<void> {
    return translateViolations({ foreignKey: () => new ScopeNotEmptyError(name) }, async () => {
      await this.db.tx.query('DELETE FROM scopes WHERE name = $1', [name]);
    });
  }
}
