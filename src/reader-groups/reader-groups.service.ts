import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditService } from '../audit/audit.service';
import { readerGroupResource } from '../auth/resources';
import type { TagCondition } from '../common/conditional/entity-tag';
import { entityTagOf, requireMatch, Tagged } from '../common/conditional/resource-version';
import { InvalidRequestError } from '../common/errors/domain-error';
import { READER_GROUP_PREFIX, streamNameProblem } from '../common/names';
import { Operation } from '../common/operations';
import { ListAnswer } from '../common/pagination/list-answer';
import type { PageQueryDto } from '../common/pagination/page-query.dto';
import { Paginator } from '../common/pagination/paginator';
import type { Db } from '../database/db';
import { InjectDb } from '../database/db';
import { ScopesService } from '../scopes/scopes.service';
import { INTERNAL_STREAM_CONFIGURATION } from '../streams/stream-configuration';
import { StreamNotFoundError } from '../streams/stream.errors';
import { StreamsRepository } from '../streams/streams.repository';
import { CreateReaderGroupDto } from './dto/create-reader-group.dto';
import { ReaderGroupPropertyDto } from './dto/reader-group-property.dto';
import { ReaderGroupsListDto } from './dto/reader-groups-list.dto';
import { ReaderGroupNotFoundError, ReaderNotOnlineError } from './reader-group.errors';
import { ReaderGroupsRepository, ScopedReaderGroup } from './reader-groups.repository';
import { scopedName, toStreamRefs } from './stream-ref';

/** The `_RG` stream that holds a group's state: one fixed segment, 4 MiB rollover. */
const READER_GROUP_STREAM_CONFIGURATION = {
  ...INTERNAL_STREAM_CONFIGURATION,
  rolloverSizeBytes: 4_194_304,
};

@Injectable()
export class ReaderGroupsService {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly groups: ReaderGroupsRepository,
    private readonly streams: StreamsRepository,
    private readonly scopes: ScopesService,
    private readonly audit: AuditService,
    private readonly pages: Paginator,
  ) {}

  /** Creates the group, its `_RG` stream (with companion) and its stream list in one transaction. */
  async create(
    actor: Actor,
    scope: string,
    request: CreateReaderGroupDto,
  ): Promise<Tagged<ReaderGroupPropertyDto>> {
    const group = request.readerGroupName;
    const refs = toStreamRefs(request.streams, scope);
    const streamList = refs.map(scopedName);
    const version = await this.db.withTransaction(async () => {
      const created = await this.groups.insert(scope, group);
      const present = await this.groups.lockExistingStreams(refs);
      const missing = refs.find((ref) => !present.has(scopedName(ref)));
      if (missing) throw new StreamNotFoundError(missing.scope, missing.stream);
      await this.streams.create(
        scope,
        `${READER_GROUP_PREFIX}${group}`,
        READER_GROUP_STREAM_CONFIGURATION,
        group,
      );
      await this.groups.insertStreams(scope, group, refs);
      await this.audit.changed(actor, {
        operation: Operation.createReaderGroup,
        resource: readerGroupResource(scope, group),
        after: { readerGroupName: group, streamList },
      });
      return created;
    });
    return {
      body: { scopeName: scope, readerGroupName: group, streamList, onlineReaderIds: [] },
      etag: entityTagOf(version),
    };
  }

  async list(
    scope: string,
    query: PageQueryDto,
  ): Promise<ListAnswer<ReaderGroupsListDto['readerGroups'][number]>> {
    const request = await this.pages.request<string>(['readergroups', scope], query);
    await this.scopes.assertExists(scope);
    const page = await this.pages.page(request, await this.groups.names(scope, request), (n) => n);
    return ListAnswer.of('readerGroups', page, (readerGroupName) => ({ readerGroupName }));
  }

  /** The groups of several scopes with the streams they read; `lock` holds them. */
  groupsIn(scopes: string[], lock: boolean): Promise<ScopedReaderGroup[]> {
    return this.groups.findIn(scopes, lock);
  }

  get(scope: string, group: string): Promise<Tagged<ReaderGroupPropertyDto>> {
    return this.scopes.within(scope, async () => {
      const found = await this.groups.findOne(scope, group);
      if (!found) throw new ReaderGroupNotFoundError(scope, group);
      return {
        body: {
          scopeName: scope,
          readerGroupName: group,
          streamList: found.streams,
          onlineReaderIds: found.readers,
        },
        etag: entityTagOf(found.revision),
      };
    });
  }

  /** Deletes the group; its `_RG` stream, stream list and readers go with it. */
  delete(actor: Actor, scope: string, group: string, condition?: TagCondition): Promise<void> {
    return this.changeGroup(scope, group, condition, async () => {
      await this.groups.delete(scope, group);
      await this.audit.changed(actor, {
        operation: Operation.deleteReaderGroup,
        resource: readerGroupResource(scope, group),
      });
    });
  }

  /** Marks a reader online; doing it twice changes nothing (and records nothing). */
  async readerOnline(
    actor: Actor,
    scope: string,
    group: string,
    readerId: string,
    condition?: TagCondition,
  ): Promise<void> {
    const problem = streamNameProblem(readerId);
    if (problem) throw InvalidRequestError.of('readerId', `readerId ${problem}`);
    await this.changeGroup(scope, group, condition, async () => {
      if (!(await this.groups.addReader(scope, group, readerId))) return;
      await this.audit.changed(actor, {
        operation: Operation.setReaderOnline,
        resource: readerGroupResource(scope, group),
        after: { readerId, online: true },
      });
    });
  }

  readerOffline(
    actor: Actor,
    scope: string,
    group: string,
    readerId: string,
    condition?: TagCondition,
  ): Promise<void> {
    return this.changeGroup(scope, group, condition, async () => {
      if (!(await this.groups.removeReader(scope, group, readerId))) {
        throw new ReaderNotOnlineError(group, readerId);
      }
      await this.audit.changed(actor, {
        operation: Operation.setReaderOffline,
        resource: readerGroupResource(scope, group),
        after: { readerId, online: false },
      });
    });
  }

  /**
   * Runs a change of a group in one transaction, its row locked first so that changes take
   * turns and `If-Match` is checked against the version the change starts from.
   */
  private changeGroup(
    scope: string,
    group: string,
    condition: TagCondition | undefined,
    change: () => Promise<void>,
  ): Promise<void> {
    return this.scopes.within(scope, () =>
      this.db.withTransaction(async () => {
        const current = await this.groups.lockVersion(scope, group);
        if (!current) throw new ReaderGroupNotFoundError(scope, group);
        requireMatch(condition, `reader group ${scope}/${group}`, current);
        await change();
      }),
    );
  }
}
