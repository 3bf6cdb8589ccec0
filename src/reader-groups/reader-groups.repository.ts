import { Injectable } from '@nestjs/common';
import { translateViolations } from '../database/constraint-violations';
import type { Db } from '../database/db';
import { InjectDb } from '../database/db';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import { ReaderGroupExistsError, ReaderGroupNotFoundError } from './reader-group.errors';
import { scopedName, StreamRef } from './stream-ref';

/** A reader group as stored: its streams (in the order given) and its online readers. */
export interface ReaderGroupRecord {
  streams: string[];
  readers: string[];
}

/** A reader group of a listing of several scopes, with the streams it reads. */
export interface ScopedReaderGroup {
  scopeName: string;
  name: string;
  /** Scoped names (`scope/stream`), in the order given. */
  streams: string[];
  version: number;
}

/**
 * Every statement of the reader-groups aggregate: groups, their stream lists and their readers.
 * Each joins the current transaction, if any.
 */
@Injectable()
export class ReaderGroupsRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  insert(scope: string, group: string): Promise<void> {
    return translateViolations(
      {
        unique: () => new ReaderGroupExistsError(scope, group),
        foreignKey: () => new ScopeNotFoundError(scope),
      },
      async () => {
        await this.db.tx.query(`INSERT INTO reader_groups (scope_name, name) VALUES ($1, $2)`, [
          scope,
          group,
        ]);
      },
    );
  }

  /**
   * Which of the streams exist. Those found are locked against deletion until the transaction
   * ends, so the group's foreign keys cannot fail for a stream found here.
   */
  async lockExistingStreams(refs: StreamRef[]): Promise<Set<string>> {
    const found = await this.db.tx.query<{ scope_name: string; name: string }[]>(
      `SELECT s.scope_name, s.name FROM streams s
         JOIN unnest($1::text[], $2::text[]) AS r (stream_scope, stream_name)
           ON s.scope_name = r.stream_scope AND s.name = r.stream_name
       FOR KEY SHARE OF s`,
      [refs.map((r) => r.scope), refs.map((r) => r.stream)],
    );
    return new Set(found.map((row) => scopedName({ scope: row.scope_name, stream: row.name })));
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

  async names(scope: string): Promise<string[]> {
    const rows = await this.db.tx.query<{ name: string }[]>(
      `SELECT name FROM reader_groups WHERE scope_name = $1 ORDER BY name`,
      [scope],
    );
    return rows.map((row) => row.name);
  }

  /** The group with its streams and its online readers, in one query. */
  async findOne(scope: string, group: string): Promise<ReaderGroupRecord | undefined> {
    const [row] = await this.db.tx.query<ReaderGroupRecord[]>(
      `SELECT
             ARRAY(SELECT s.stream_scope || '/' || s.stream_name FROM reader_group_streams s
                    WHERE s.scope_name = g.scope_name AND s.reader_group = g.name
                    ORDER BY s.position) AS streams,
             ARRAY(SELECT r.reader_id FROM reader_group_readers r
                    WHERE r.scope_name = g.scope_name AND r.reader_group = g.name
                    ORDER BY r.reader_id) AS readers
           FROM reader_groups g WHERE g.scope_name = $1 AND g.name = $2`,
      [scope, group],
    );
    return row;
  }

  /** The groups of several scopes, by scope and name; with `lock`, unchangeable until the end. */
  async findIn(scopes: string[], lock: boolean): Promise<ScopedReaderGroup[]> {
    const rows = await this.db.tx.query<
      (Omit<ScopedReaderGroup, 'version'> & { version: string })[]
    >(
      `SELECT g.scope_name AS "scopeName", g.name, g.version,
             ARRAY(SELECT s.stream_scope || '/' || s.stream_name FROM reader_group_streams s
                    WHERE s.scope_name = g.scope_name AND s.reader_group = g.name
                    ORDER BY s.position) AS streams
           FROM reader_groups g WHERE g.scope_name = ANY($1::text[])
          ORDER BY g.scope_name, g.name${lock ? ' FOR NO KEY UPDATE OF g' : ''}`,
      [scopes],
    );
    return rows.map((row) => ({ ...row, version: Number(row.version) }));
  }

  async exists(scope: string, group: string): Promise<boolean> {
    const rows = await this.db.tx.query<unknown[]>(
      `SELECT 1 FROM reader_groups WHERE scope_name = $1 AND name = $2`,
      [scope, group],
    );
    return rows.length > 0;
  }

  /** Whether it deleted the group; its `_RG` stream, stream list and readers go with it. */
  delete(scope: string, group: string): Promise<boolean> {
    return this.changed(
      `DELETE FROM reader_groups WHERE scope_name = $1 AND name = $2 RETURNING 1`,
      [scope, group],
    );
  }

  /** Whether the reader was not online before. */
  addReader(scope: string, group: string, readerId: string): Promise<boolean> {
    return translateViolations(
      { foreignKey: () => new ReaderGroupNotFoundError(scope, group) },
      () =>
        this.changed(
          `INSERT INTO reader_group_readers (scope_name, reader_group, reader_id) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING 1`,
          [scope, group, readerId],
        ),
    );
  }

  /** Whether the reader was online. */
  removeReader(scope: string, group: string, readerId: string): Promise<boolean> {
    return this.changed(
      `DELETE FROM reader_group_readers
        WHERE scope_name = $1 AND reader_group = $2 AND reader_id = $3 RETURNING 1`,
      [scope, group, readerId],
    );
  }

  /** Runs a write that returns a row per changed row; whether it changed any. */
  private async changed(sql: string, params: unknown[]): Promise<boolean> {
    const rows = await this.db.tx.query<unknown[]>(
      `WITH changed AS (${sql}) SELECT 1 FROM changed`,
      params,
    );
    return rows.length > 0;
  }
}
