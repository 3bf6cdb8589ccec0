import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditEntry, AuditService } from '../audit/audit.service';
import { readerGroupResource } from '../auth/resources';
import { InvalidRequestError } from '../common/errors/domain-error';
import { isForeignKeyViolation, PgCode, sqlState } from '../common/errors/postgres-errors';
import { READER_GROUP_PREFIX, streamNameProblem } from '../common/names';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import { ScopesService } from '../scopes/scopes.service';
import { INTERNAL_STREAM_CONFIGURATION } from '../streams/stream-configuration';
import { StreamNotFoundError } from '../streams/stream.errors';
import { StreamsService } from '../streams/streams.service';
import { CreateReaderGroupDto } from './dto/create-reader-group.dto';
import { ReaderGroupPropertyDto } from './dto/reader-group-property.dto';
import { ReaderGroupsListDto } from './dto/reader-groups-list.dto';
import {
  ReaderGroupExistsError,
  ReaderGroupNotFoundError,
  ReaderNotOnlineError,
} from './reader-group.errors';
import { scopedName, StreamRef, toStreamRefs } from './stream-ref';

/** The `_RG` stream that holds a group's state: one fixed segment, 4 MiB rollover. */
const READER_GROUP_STREAM_CONFIGURATION = {
  ...INTERNAL_STREAM_CONFIGURATION,
  rolloverSizeBytes: 4_194_304,
};

@Injectable()
export class ReaderGroupsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly scopes: ScopesService,
    private readonly streams: StreamsService,
    private readonly audit: AuditService,
  ) {}

  /** Creates the group, its `_RG` stream (with companion) and its stream list in one transaction. */
  async create(scope: string, request: CreateReaderGroupDto): Promise<ReaderGroupPropertyDto> {
    const group = request.readerGroupName;
    const refs = toStreamRefs(request.streams, scope);
    try {
      await this.dataSource.transaction(async (tx) => {
        await tx.query(`INSERT INTO reader_groups (scope_name, name) VALUES ($1, $2)`, [
          scope,
          group,
        ]);
        await this.assertStreamsExist(tx, refs);
        await this.streams.insertWithCompanion(
          tx,
          scope,
          `${READER_GROUP_PREFIX}${group}`,
          READER_GROUP_STREAM_CONFIGURATION,
          { readerGroup: group },
        );
        await tx.query(
          `INSERT INTO reader_group_streams (scope_name, reader_group, position, stream_scope, stream_name)
           SELECT $1, $2, r.position - 1, r.stream_scope, r.stream_name
             FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS r (stream_scope, stream_name, position)`,
          [scope, group, refs.map((r) => r.scope), refs.map((r) => r.stream)],
        );
        await this.audit.changed(tx, {
          operation: 'createReaderGroup',
          resource: readerGroupResource(scope, group),
          after: { readerGroupName: group, streamList: refs.map(scopedName) },
        });
      });
    } catch (error) {
      if (sqlState(error) === PgCode.uniqueViolation)
        throw new ReaderGroupExistsError(scope, group);
      if (isForeignKeyViolation(error)) throw new ScopeNotFoundError(scope);
      throw error;
    }
    return {
      scopeName: scope,
      readerGroupName: group,
      streamList: refs.map(scopedName),
      onlineReaderIds: [],
    };
  }

  async list(scope: string): Promise<ReaderGroupsListDto> {
    await this.scopes.assertExists(scope);
    const rows = await this.dataSource.query<{ name: string }[]>(
      `SELECT name FROM reader_groups WHERE scope_name = $1 ORDER BY name`,
      [scope],
    );
    return { readerGroups: rows.map((row) => ({ readerGroupName: row.name })) };
  }

  /** The group with its streams (in the order given) and its online readers, in one query. */
  async get(scope: string, group: string): Promise<ReaderGroupPropertyDto> {
    const [row] = await this.dataSource.query<{ streams: string[]; readers: string[] }[]>(
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
    if (!row) return this.notFound(scope, group);
    return {
      scopeName: scope,
      readerGroupName: group,
      streamList: row.streams,
      onlineReaderIds: row.readers,
    };
  }

  /** Deletes the group; its `_RG` stream, stream list and readers go with it (cascade). */
  async delete(scope: string, group: string): Promise<void> {
    const deleted = await this.change(
      { operation: 'deleteReaderGroup', resource: readerGroupResource(scope, group) },
      `DELETE FROM reader_groups WHERE scope_name = $1 AND name = $2`,
      [scope, group],
    );
    if (deleted === 0) return this.notFound(scope, group);
  }

  /** Marks a reader online; doing it twice changes nothing. */
  async readerOnline(scope: string, group: string, readerId: string): Promise<void> {
    const problem = streamNameProblem(readerId);
    if (problem) throw InvalidRequestError.of('readerId', `readerId ${problem}`);
    try {
      await this.change(
        {
          operation: 'setReaderOnline',
          resource: readerGroupResource(scope, group),
          after: { readerId, online: true },
        },
        `INSERT INTO reader_group_readers (scope_name, reader_group, reader_id) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [scope, group, readerId],
      );
    } catch (error) {
      if (isForeignKeyViolation(error)) return this.notFound(scope, group);
      throw error;
    }
  }

  async readerOffline(scope: string, group: string, readerId: string): Promise<void> {
    const removed = await this.change(
      {
        operation: 'setReaderOffline',
        resource: readerGroupResource(scope, group),
        after: { readerId, online: false },
      },
      `DELETE FROM reader_group_readers WHERE scope_name = $1 AND reader_group = $2 AND reader_id = $3`,
      [scope, group, readerId],
    );
    if (removed > 0) return;
    await this.get(scope, group);
    throw new ReaderNotOnlineError(group, readerId);
  }

  /**
   * Every stream the group reads must exist. The rows found are locked against deletion until
   * the transaction ends, so the group's foreign keys cannot fail for a stream checked here.
   */
  private async assertStreamsExist(tx: EntityManager, refs: StreamRef[]): Promise<void> {
    const found = await tx.query<{ scope_name: string; name: string }[]>(
      `SELECT s.scope_name, s.name FROM streams s
         JOIN unnest($1::text[], $2::text[]) AS r (stream_scope, stream_name)
           ON s.scope_name = r.stream_scope AND s.name = r.stream_name
       FOR KEY SHARE OF s`,
      [refs.map((r) => r.scope), refs.map((r) => r.stream)],
    );
    const present = new Set(
      found.map((row) => scopedName({ scope: row.scope_name, stream: row.name })),
    );
    const missing = refs.find((ref) => !present.has(scopedName(ref)));
    if (missing) throw new StreamNotFoundError(missing.scope, missing.stream);
  }

  /**
   * Runs one write and, when it changed a row, records it in the audit trail in the same
   * transaction; returns how many rows it changed.
   */
  private change(entry: AuditEntry, sql: string, params: unknown[]): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      const { affected = 0 } = await tx.queryRunner!.query(sql, params, true);
      if (affected > 0) await this.audit.changed(tx, entry);
      return affected;
    });
  }

  /** Says which is missing: the scope or the group. */
  private async notFound(scope: string, group: string): Promise<never> {
    await this.scopes.assertExists(scope);
    throw new ReaderGroupNotFoundError(scope, group);
  }
}
