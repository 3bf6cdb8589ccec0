import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditService } from '../audit/audit.service';
import { readerGroupResource } from '../auth/resources';
import { InvalidRequestError } from '../common/errors/domain-error';
import { READER_GROUP_PREFIX, streamNameProblem } from '../common/names';
import { Operation } from '../common/operations';
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
  ) {}

  /** Creates the group, its `_RG` stream (with companion) and its stream list in one transaction. */
  async create(
    actor: Actor,
    scope: string,
    request: CreateReaderGroupDto,
  ): Promise<ReaderGroupPropertyDto> {
    const group = request.readerGroupName;
    const refs = toStreamRefs(request.streams, scope);
    const streamList = refs.map(scopedName);
    await this.db.withTransaction(async () => {
      await this.groups.insert(scope, group);
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
    });
    return { scopeName: scope, readerGroupName: group, streamList, onlineReaderIds: [] };
  }

  async list(scope: string): Promise<ReaderGroupsListDto> {
    await this.scopes.assertExists(scope);
    const names = await this.groups.names(scope);
    return { readerGroups: names.map((readerGroupName) => ({ readerGroupName })) };
  }

  /** The groups of several scopes with the streams they read; `lock` holds them. */
  groupsIn(scopes: string[], lock: boolean): Promise<ScopedReaderGroup[]> {
    return this.groups.findIn(scopes, lock);
  }

  get(scope: string, group: string): Promise<ReaderGroupPropertyDto> {
    return this.scopes.within(scope, async () => {
      const found = await this.groups.findOne(scope, group);
      if (!found) throw new ReaderGroupNotFoundError(scope, group);
      return {
        scopeName: scope,
        readerGroupName: group,
        streamList: found.streams,
        onlineReaderIds: found.readers,
      };
    });
  }

  /** Deletes the group; its `_RG` stream, stream list and readers go with it. */
  delete(actor: Actor, scope: string, group: string): Promise<void> {
    return this.scopes.within(scope, () =>
      this.db.withTransaction(async () => {
        if (!(await this.groups.delete(scope, group))) {
          throw new ReaderGroupNotFoundError(scope, group);
        }
        await this.audit.changed(actor, {
          operation: Operation.deleteReaderGroup,
          resource: readerGroupResource(scope, group),
        });
      }),
    );
  }

  /** Marks a reader online; doing it twice changes nothing (and records nothing). */
  async readerOnline(actor: Actor, scope: string, group: string, readerId: string): Promise<void> {
    const problem = streamNameProblem(readerId);
    if (problem) throw InvalidRequestError.of('readerId', `readerId ${problem}`);
    await this.scopes.within(scope, () =>
      this.db.withTransaction(async () => {
        if (!(await this.groups.addReader(scope, group, readerId))) return;
        await this.audit.changed(actor, {
          operation: Operation.setReaderOnline,
          resource: readerGroupResource(scope, group),
          after: { readerId, online: true },
        });
      }),
    );
  }

  readerOffline(actor: Actor, scope: string, group: string, readerId: string): Promise<void> {
    return this.scopes.within(scope, () =>
      this.db.withTransaction(async () => {
        if (!(await this.groups.removeReader(scope, group, readerId))) {
          if (!(await this.groups.exists(scope, group))) {
            throw new ReaderGroupNotFoundError(scope, group);
          }
          throw new ReaderNotOnlineError(group, readerId);
        }
        await this.audit.changed(actor, {
          operation: Operation.setReaderOffline,
          resource: readerGroupResource(scope, group),
          after: { readerId, online: false },
        });
      }),
    );
  }
}
