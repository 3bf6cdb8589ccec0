import { Injectable } from '@nestjs/common';
import { translateViolations } from '../database/constraint-violations';
import type { Db } from '../database/db';
import { InjectDb } from '../database/db';
import { ScopeExistsError, ScopeNotEmptyError } from './scope.errors';

/** Every statement of the scopes table; each joins the current transaction, if any. */
@Injectable()
export class ScopesRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  async exists(name: string): Promise<boolean> {
    const rows = await this.db.tx.query<unknown[]>('SELECT 1 FROM scopes WHERE name = $1', [name]);
    return rows.length > 0;
  }

  async names(): Promise<string[]> {
    const rows = await this.db.tx.query<{ name: string }[]>(
      'SELECT name FROM scopes ORDER BY name',
    );
    return rows.map((row) => row.name);
  }

  /**
   * The versions of those of the scopes that exist. With `lock`, two transactions that both
   * lock a scope this way take turns, while changes inside the scope go on.
   */
  async versions(names: string[], lock: boolean): Promise<Map<string, number>> {
    const rows = await this.db.tx.query<{ name: string; version: string }[]>(
      `SELECT name, version FROM scopes WHERE name = ANY($1::text[])
        ORDER BY name${lock ? ' FOR NO KEY UPDATE' : ''}`,
      [names],
    );
    return new Map(rows.map((row) => [row.name, Number(row.version)]));
  }

  insert(name: string): Promise<void> {
    return translateViolations({ unique: () => new ScopeExistsError(name) }, async () => {
      await this.db.tx.query('INSERT INTO scopes (name) VALUES ($1)', [name]);
    });
  }

  /** Whether it deleted the scope; the foreign keys of its streams and groups refuse one in use. */
  delete(name: string): Promise<boolean> {
    return translateViolations({ foreignKey: () => new ScopeNotEmptyError(name) }, async () => {
      const rows = await this.db.tx.query<unknown[]>(
        'WITH deleted AS (DELETE FROM scopes WHERE name = $1 RETURNING 1) SELECT 1 FROM deleted',
        [name],
      );
      return rows.length > 0;
    });
  }
}
