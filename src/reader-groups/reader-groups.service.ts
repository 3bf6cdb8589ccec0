import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditedChanges, Changed, ChangeTarget } from '../audit/audited-changes.service';
import { mayRead, Principal } from '../auth/principal';
import { readerGroupResource } from '../auth/resources';
import { InvalidRequestError } from '../common/domain-error';
import { streamNameProblem } from '../common/names';
import { Operation } from '../common/operations';
import type { TagCondition } from '../conditional/entity-tag';
import { ResourceVersion, Tagged } from '../conditional/resource-version';
import { ListAnswer } from '../pagination/list-answer';
import type { PageQueryDto } from '../pagination/page-query.dto';
import { Paginator } from '../pagination/paginator';
import type { Keyset } from '../database/keyset';
import { ScopesService } from '../scopes/scopes.service';
import { StreamNotFoundError } from '../streams/stream.errors';
import { StreamsService } from '../streams/streams.service';
import { CreateReaderGroupDto } from './dto/create-reader-group.dto';
import { ReaderGroupPropertyDto } from './dto/reader-group-property.dto';
import type { ScopedReaderGroup } from './reader-group';
import { ReaderGroupNotFoundError, ReaderNotOnlineError } from './reader-group.errors';
import { ReaderGroupsRepository } from './reader-groups.repository';
import { mayReadStream, scopedName, toStreamRefs } from './stream-ref';

/** A reader that went online or offline, as the audit trail records it. */
const readerChanged = (
  scope: string,
  group: string,
  readerId: string,
  online: boolean,
  shown: () => Promise<Tagged<object>>,
): Changed<void> => ({
  result: undefined,
  audit: {
    operation: online ? Operation.setReaderOnline : Operation.setReaderOffline,
    resource: readerGroupResource(scope, group),
    after: { readerId, online },
  },
  shown,
});

@Injectable()
export class ReaderGroupsService {
  constructor(
    private readonly groups: ReaderGroupsRepository,
    private readonly streams: StreamsService,
    private readonly scopes: ScopesService,
    private readonly changes: AuditedChanges,
    private readonly pages: Paginator,
  ) {}

  /** Creates the group, its `_RG` stream (with companion) and its stream list in one transaction. */
  create(
    actor: Actor,
    scope: string,
    request: CreateReaderGroupDto,
  ): Promise<Tagged<ReaderGroupPropertyDto>> {
    const group = request.readerGroupName;
    const refs = toStreamRefs(request.streams, scope);
    const streamList = refs.map(scopedName);
    return this.changes.create(actor, async () => {
      const created = await this.groups.insert(scope, group);
      const present = await this.streams.lockExisting(refs);
      const missing = refs.find((ref) => !present.has(scopedName(ref)));
      if (missing) throw new StreamNotFoundError(missing.scope, missing.stream);
      await this.streams.createReaderGroupStream(scope, group);
      await this.groups.insertStreams(scope, group, refs);
      const body = { scopeName: scope, readerGroupName: group, streamList, onlineReaderIds: [] };
      const result = Tagged.of(body, created);
      return {
        result,
        shown: () => Promise.resolve(result),
        audit: {
          operation: Operation.createReaderGroup,
          resource: readerGroupResource(scope, group),
          after: { readerGroupName: group, streamList },
        },
      };
    });
  }

  /**
   * A page of the scope's groups, or all of them, read in batches while the answer is sent.
   * Only an empty read asks whether the scope exists.
   */
  async list(scope: string, query: PageQueryDto): Promise<ListAnswer<{ readerGroupName: string }>> {
    const request = await this.pages.request<string>(['readergroups', scope], query);
    const read = async (keyset: Keyset<string>) => {
      const names = await this.groups.names(scope, keyset);
      if (names.length === 0) await this.scopes.assertExists(scope);
      return names;
    };
    const rows = { read, positionOf: (name: string) => name };
    return this.pages.answer('readerGroups', request, rows, (readerGroupName) => ({
      readerGroupName,
    }));
  }

  /** The groups of several scopes with the streams they read; `lock` holds them. */
  groupsIn(scopes: string[], lock: boolean): Promise<ScopedReaderGroup[]> {
    return this.groups.findIn(scopes, lock);
  }

  /**
   * The groups that read a stream, as scoped names (`scope/group`): those the caller may read
   * (`access`; all without it), and how many others.
   */
  async groupsReading(
    scope: string,
    stream: string,
    access?: Principal,
  ): Promise<{ names: string[]; hidden: number }> {
    const groups = await this.groups.namesReading(scope, stream);
    const names = groups
      .filter((g) => mayRead(access, readerGroupResource(g.scopeName, g.name)))
      .map((g) => `${g.scopeName}/${g.name}`);
    return { names, hidden: groups.length - names.length };
  }

  /**
   * The group; its `streamList` holds only the streams the caller may read (`access`; all
   * without it): a stream of another scope is named only to who may read it.
   */
  get(scope: string, group: string, access?: Principal): Promise<Tagged<ReaderGroupPropertyDto>> {
    return this.scopes.within(scope, async () => {
      const found = await this.groups.findOne(scope, group);
      if (!found) throw new ReaderGroupNotFoundError(scope, group);
      const { streams, readers: onlineReaderIds, revision } = found;
      const streamList = streams.filter((name) => mayReadStream(access, name));
      const body = { scopeName: scope, readerGroupName: group, streamList, onlineReaderIds };
      return Tagged.of(body, revision);
    });
  }

  /** Deletes the group; its `_RG` stream, stream list and readers go with it. */
  delete(actor: Actor, scope: string, group: string, condition?: TagCondition): Promise<void> {
    return this.changeGroup(actor, scope, group, condition, async () => {
      await this.groups.delete(scope, group);
      return {
        result: undefined,
        audit: {
          operation: Operation.deleteReaderGroup,
          resource: readerGroupResource(scope, group),
        },
      };
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
    return this.changeGroup(actor, scope, group, condition, async () => {
      if (!(await this.groups.addReader(scope, group, readerId))) return { result: undefined };
      return readerChanged(scope, group, readerId, true, () => this.get(scope, group));
    });
  }

  readerOffline(
    actor: Actor,
    scope: string,
    group: string,
    readerId: string,
    condition?: TagCondition,
  ): Promise<void> {
    return this.changeGroup(actor, scope, group, condition, async () => {
      if (!(await this.groups.removeReader(scope, group, readerId))) {
        throw new ReaderNotOnlineError(group, readerId);
      }
      return readerChanged(scope, group, readerId, false, () => this.get(scope, group));
    });
  }

  /** Runs a change of a group (see {@link AuditedChanges.change}). */
  private changeGroup(
    actor: Actor,
    scope: string,
    group: string,
    condition: TagCondition | undefined,
    change: () => Promise<Changed<void>>,
  ): Promise<void> {
    const target: ChangeTarget<ResourceVersion> = {
      what: `reader group ${scope}/${group}`,
      lock: () => this.groups.lockVersion(scope, group),
      missing: () => new ReaderGroupNotFoundError(scope, group),
      version: (version) => version,
    };
    return this.scopes.within(scope, () => this.changes.change(actor, target, condition, change));
  }
}
