import { Injectable } from '@nestjs/common';
import { Keyset, keysetClauses } from '../database/keyset';
import { translateViolations } from '../database/constraint-violations';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { versionColumns } from '../database/version-columns';
import type { ResourceVersion } from '../conditional/resource-version';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import type { ReaderGroupRecord, ScopedReaderGroup } from './reader-group';
import { ReaderGroupExistsError, ReaderGroupNotFoundError } from './reader-group.errors';
import type { StreamRef } from './stream-ref';

/**
 * Every statement of the reader-groups aggregate: groups, their stream lists and their readers.
 * Each joins the current transaction, if any.
 */
@Injectable()
export class ReaderGroupsRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  /** Creates the group; the version of the new group. */
  insert(scope: string, group: string): Promise<ResourceVersion> {
    return translateViolations(
      {
        unique: () => new ReaderGroupExistsError(scope, group),
        foreignKey: () => new ScopeNotFoundError(scope),
      },
      async () => {
        const [row] = await this.db.tx.query<ResourceVersion[]>(
          `INSERT INTO reader_groups (scope_name, name) VALUES ($1, $2)
           RETURNING ${versionColumns()}`,
          [scope, group],
        );
        return row;
      },
    );
  }

  /** The group's version, its row locked until the transaction ends; undefined when missing. */
  async lockVersion(scope: string, group: string): Promise<ResourceVersion | undefined> {
    const [row] = await this.db.tx.query<ResourceVersion[]>(
      `SELECT ${versionColumns()} FROM reader_groups WHERE scope_name = $1 AND name = $2
       FOR UPDATE`,
      [scope, group],
    );
    return row;
  }

  /** Stores the group's stream list, in order. */
  async insertStreams(scope: string, group: string, refs: StreamRef[]): Promise<void> {
    await this.db.tx.query(
      `INSERT INTO reader_group_streams (scope_name, reader_group, position, stream_scope, stream_name)
       SELECT $1, $2, r.position - 1, r.stream_scope, r.stream_name
         FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS r (stream_scope, stream_name, position)`,
      [scope, group, refs.map((r) => r.scope), refs.map((r) => r.stream)],
    );
  }

  /** Names in order, a batch or a page after a name (one range scan of the key). */
  async names(scope: string, keyset: Keyset<string>): Promise<string[]> {
    const params: unknown[] = [scope];
    const { after, orderAndLimit } = keysetClauses(params, keyset);
    const rows = await this.db.tx.query<{ name: string }[]>(
      `SELECT name FROM reader_groups WHERE scope_name = $1 AND ${after} ${orderAndLimit}`,
      params,
    );
    return rows.map((row) => row.name);
  }

  /** The groups that read a stream, by scope and name. */
  namesReading(scope: string, stream: string): Promise<{ scopeName: string; name: string }[]> {
    return this.db.tx.query(
      `SELECT scope_name AS "scopeName", reader_group AS name FROM reader_group_streams
        WHERE stream_scope = $1 AND stream_name = $2 ORDER BY scope_name, reader_group`,
      [scope, stream],
    );
  }

  /** The group with its streams and its online readers, in one query. */
  async findOne(scope: string, group: string): Promise<ReaderGroupRecord | undefined> {
    const [row] = await this.db.tx.query<(Omit<ReaderGroupRecord, 'revision'> & ResourceVersion)[]>(
      `SELECT ${versionColumns('g')},
             ARRAY(SELECT s.stream_scope || '/' || s.stream_name FROM reader_group_streams s
                    WHERE s.scope_name = g.scope_name AND s.reader_group = g.name
                    ORDER BY s.position) AS streams,
             ARRAY(SELECT r.reader_id FROM reader_group_readers r
                    WHERE r.scope_name = g.scope_name AND r.reader_group = g.name
                    ORDER BY r.reader_id) AS readers
           FROM reader_groups g WHERE g.scope_name = $1 AND g.name = $2`,
      [scope, group],
    );
    if (!row) return undefined;
    const { created, version, ...rest } = row;
    return { ...rest, revision: { created, version } };
  }

  /** The groups of several scopes, by scope and name; with `lock`, unchangeable until the end. */
  async findIn(scopes: string[], lock: boolean): Promise<ScopedReaderGroup[]> {
    const rows = await this.db.tx.query<(Omit<ScopedReaderGroup, 'revision'> & ResourceVersion)[]>(
      `SELECT g.scope_name AS "scopeName", g.name, ${versionColumns('g')},
             ARRAY(SELECT s.stream_scope || '/' || s.stream_name FROM reader_group_streams s
                    WHERE s.scope_name = g.scope_name AND s.reader_group = g.name
                    ORDER BY s.position) AS streams
           FROM reader_groups g WHERE g.scope_name = ANY($1::text[])
          ORDER BY g.scope_name, g.name${lock ? ' FOR NO KEY UPDATE OF g' : ''}`,
      [scopes],
    );
    return rows.map(({ created, version, ...group }) => ({
      ...group,
      revision: { created, version },
    }));
  }

  /** Deletes the group; its `_RG` stream, stream list and readers go with it. */
  async delete(scope: string, group: string): Promise<void> {
    await this.db.tx.query(`DELETE FROM reader_groups WHERE scope_name = $1 AND name = $2`, [
      scope,
      group,
    ]);
  }

  /** Whether the reader was not online before; if so, the group's version is bumped with it. */
  addReader(scope: string, group: string, readerId: string): Promise<boolean> {
    return translateViolations(
      { foreignKey: () => new ReaderGroupNotFoundError(scope, group) },
      () =>
        this.readersChanged(
          `INSERT INTO reader_group_readers (scope_name, reader_group, reader_id) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING 1`,
          [scope, group, readerId],
        ),
    );
  }

  /** Whether the reader was online; if so, the group's version is bumped with it. */
  removeReader(scope: string, group: string, readerId: string): Promise<boolean> {
    return this.readersChanged(
      `DELETE FROM reader_group_readers
        WHERE scope_name = $1 AND reader_group = $2 AND reader_id = $3 RETURNING 1`,
      [scope, group, readerId],
    );
  }

  /**
   * Runs a write of the readers of group ($1, $2) that returns a row per changed reader, and
   * in the same statement bumps the group's version when it changed any; whether it did.
   */
  private async readersChanged(sql: string, params: unknown[]): Promise<boolean> {
    const rows = await this.db.tx.query<unknown[]>(
      `WITH changed AS (${sql}), bumped AS (
         UPDATE reader_groups SET version = version + 1
          WHERE scope_name = $1 AND name = $2 AND EXISTS (SELECT 1 FROM changed)
          RETURNING 1)
       SELECT 1 FROM bumped`,
      params,
    );
    return rows.length > 0;
  }
}
