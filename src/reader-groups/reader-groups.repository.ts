import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { ResourceVersion } from '../conditional/resource-version';
import { createdMicros, RETURNING_VERSION, versionOf } from '../database/column-transformers';
import { translateViolations } from '../database/constraint-violations';
import { byKeyset, Keyset } from '../database/keyset';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { InsertRows, QueryBuiltOnce } from '../database/statements-built-once';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import type { ReaderGroupRecord, ScopedReaderGroup } from './reader-group';
import { ReaderGroupReaderEntity } from './reader-group-reader.entity';
import { ReaderGroupStreamEntity } from './reader-group-stream.entity';
import { ReaderGroupEntity } from './reader-group.entity';
import { ReaderGroupExistsError, ReaderGroupNotFoundError } from './reader-group.errors';
import type { StreamRef } from './stream-ref';

/** The inserts of every create of a group (docs/ARCHITECTURE.md, "Statements built once"). */
const INSERT = new InsertRows(ReaderGroupEntity, ['scopeName', 'name'], RETURNING_VERSION);
const INSERT_STREAMS = new InsertRows(ReaderGroupStreamEntity, [
  'scopeName',
  'readerGroup',
  'position',
  'streamScope',
  'streamName',
]);

/**
 * The groups aliased `g`, with their versions and stream lists (scoped names, in order) and,
 * with `readers`, their online readers: `array_agg` subqueries, one statement whatever the
 * lists' lengths.
 */
function withLists(
  manager: EntityManager,
  readers: boolean,
): SelectQueryBuilder<ReaderGroupEntity> {
  const query = manager
    .getRepository(ReaderGroupEntity)
    .createQueryBuilder('g')
    .select('g.scopeName', 'scopeName')
    .addSelect('g.name', 'name')
    .addSelect('g.version::text', 'version')
    .addSelect(createdMicros('g'), 'created')
    .addSelect(
      (list) =>
        list
          .select(
            `coalesce(array_agg(s.stream_scope || '/' || s.stream_name ORDER BY s.position), '{}')`,
          )
          .from(ReaderGroupStreamEntity, 's')
          .where('s.scope_name = g.scope_name AND s.reader_group = g.name'),
      'streams',
    );
  if (!readers) return query;
  return query.addSelect(
    (list) =>
      list
        .select(`coalesce(array_agg(r.reader_id ORDER BY r.reader_id), '{}')`)
        .from(ReaderGroupReaderEntity, 'r')
        .where('r.scope_name = g.scope_name AND r.reader_group = g.name'),
    'readers',
  );
}

/** The read of every GET of a group, with its lists, in one query. */
const ONE_GROUP = new QueryBuiltOnce(
  (manager) => withLists(manager, true).where('g.scopeName = :scope AND g.name = :group'),
  ['scope', 'group'],
);

/** A group as read with its lists: its version and its scoped names, as text. */
interface GroupRow extends ResourceVersion {
  scopeName: string;
  name: string;
  streams: string[];
  readers: string[];
}

/**
 * Every statement of the reader-groups aggregate: groups, their stream lists and their readers.
 * Each joins the current transaction, if any.
 */
@Injectable()
export class ReaderGroupsRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get groups() {
    return this.db.tx.getRepository(ReaderGroupEntity);
  }

  private get streamLists() {
    return this.db.tx.getRepository(ReaderGroupStreamEntity);
  }

  private get readers() {
    return this.db.tx.getRepository(ReaderGroupReaderEntity);
  }

  /** Creates the group; the version of the new group. */
  insert(scope: string, group: string): Promise<ResourceVersion> {
    return translateViolations(
      {
        unique: () => new ReaderGroupExistsError(scope, group),
        foreignKey: () => new ScopeNotFoundError(scope),
      },
      async () => {
        const [inserted] = await INSERT.run<ResourceVersion>(this.db.tx, [
          { scopeName: scope, name: group },
        ]);
        return inserted;
      },
    );
  }

  /** The group's version, its row locked until the transaction ends; undefined when missing. */
  async lockVersion(scope: string, group: string): Promise<ResourceVersion | undefined> {
    const found = await this.groups.findOne({
      where: { scopeName: scope, name: group },
      lock: { mode: 'pessimistic_write' },
    });
    return found ? versionOf(found) : undefined;
  }

  /** Stores the group's stream list, in order, in one statement. */
  async insertStreams(scope: string, group: string, refs: StreamRef[]): Promise<void> {
    await INSERT_STREAMS.run(
      this.db.tx,
      refs.map((ref, position) => ({
        scopeName: scope,
        readerGroup: group,
        position,
        streamScope: ref.scope,
        streamName: ref.stream,
      })),
    );
  }

  /** Names in order, a batch or a page after a name (one range scan of the key). */
  async names(scope: string, keyset: Keyset<string>): Promise<string[]> {
    const query = this.groups
      .createQueryBuilder('g')
      .select('g.name', 'name')
      .where('g.scopeName = :scope', { scope });
    const rows = await byKeyset(query, 'g.name', keyset).getRawMany<{ name: string }>();
    return rows.map((row) => row.name);
  }

  /** The groups that read a stream, by scope and name. */
  async namesReading(
    scope: string,
    stream: string,
  ): Promise<{ scopeName: string; name: string }[]> {
    const rows = await this.streamLists.find({
      select: { scopeName: true, readerGroup: true },
      where: { streamScope: scope, streamName: stream },
      order: { scopeName: 'ASC', readerGroup: 'ASC' },
    });
    return rows.map((row) => ({ scopeName: row.scopeName, name: row.readerGroup }));
  }

  /** The group with its streams and its online readers, in one query. */
  async findOne(scope: string, group: string): Promise<ReaderGroupRecord | undefined> {
    const [row] = await ONE_GROUP.rows<GroupRow>(this.db.tx, { scope, group });
    if (!row) return undefined;
    return { streams: row.streams, readers: row.readers, revision: versionOf(row) };
  }

  /** The groups of several scopes, by scope and name; with `lock`, unchangeable until the end. */
  async findIn(scopes: string[], lock: boolean): Promise<ScopedReaderGroup[]> {
    const query = withLists(this.db.tx, false)
      .where('g.scopeName = ANY(:scopes)', { scopes })
      .orderBy('g.scopeName')
      .addOrderBy('g.name');
    if (lock) query.setLock('for_no_key_update', undefined, ['g']);
    const rows = await query.getRawMany<GroupRow>();
    return rows.map((row) => ({
      scopeName: row.scopeName,
      name: row.name,
      streams: row.streams,
      revision: versionOf(row),
    }));
  }

  /** Deletes the group; its `_RG` stream, stream list and readers go with it. */
  async delete(scope: string, group: string): Promise<void> {
    await this.groups.delete({ scopeName: scope, name: group });
  }

  /** Whether the reader was not online before; if so, the group's version is moved on. */
  addReader(scope: string, group: string, readerId: string): Promise<boolean> {
    return translateViolations(
      { foreignKey: () => new ReaderGroupNotFoundError(scope, group) },
      async () => {
        const added = await this.readers
          .createQueryBuilder()
          .insert()
          .values({ scopeName: scope, readerGroup: group, readerId })
          .orIgnore()
          .returning('reader_id')
          .updateEntity(false)
          .execute();
        return this.readersChanged(scope, group, (added.raw as unknown[]).length);
      },
    );
  }

  /** Whether the reader was online; if so, the group's version is moved on. */
  async removeReader(scope: string, group: string, readerId: string): Promise<boolean> {
    const removed = await this.readers.delete({ scopeName: scope, readerGroup: group, readerId });
    return this.readersChanged(scope, group, removed.affected ?? 0);
  }

  /** Moves the group's version on when `changed` readers changed; whether any did. */
  private async readersChanged(scope: string, group: string, changed: number): Promise<boolean> {
    if (changed === 0) return false;
    await this.groups.increment({ scopeName: scope, name: group }, 'version', 1);
    return true;
  }
}
