import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditService } from '../audit/audit.service';
import { streamResource } from '../auth/resources';
import type { TagCondition } from '../common/conditional/entity-tag';
import {
  entityTagOf,
  requireMatch,
  ResourceVersion,
  Tagged,
} from '../common/conditional/resource-version';
import { isInternalStreamName } from '../common/names';
import { Operation } from '../common/operations';
import { ListAnswer } from '../common/pagination/list-answer';
import type { PageQueryDto } from '../common/pagination/page-query.dto';
import { Keyset, Paginator } from '../common/pagination/paginator';
import type { Db } from '../database/db';
import { InjectDb } from '../database/db';
import { needsRescale } from '../scaling/scaling-decision';
import {
  buildScaleRecords,
  nextEpochTime,
  ScaleRecord,
  selectWindow,
} from '../scaling/scaling-history';
import type { TimeWindow } from '../scaling/time-window';
import { ScopesService } from '../scopes/scopes.service';
import { StreamDescriptionDto } from './dto/stream-description.dto';
import { StreamPropertyDto } from './dto/stream-property.dto';
import { StreamStateDto } from './dto/stream-state.dto';
import {
  StreamConfiguration,
  StreamConfigurationInput,
  toStreamConfiguration,
} from './stream-configuration';
import { toStreamDescription } from './stream-description';
import { StreamFilter } from './stream-filter';
import type { Stream } from './stream';
import {
  InternalStreamError,
  StreamNotFoundError,
  StreamNotSealedError,
  StreamSealedError,
} from './stream.errors';
import { toStreamProperty } from './stream.mapper';
import { CurrentEpoch, StreamsRepository } from './streams.repository';

/** A stream of a listing of several scopes. */
export interface ScopedStream {
  property: StreamPropertyDto;
  sealed: boolean;
  revision: ResourceVersion;
}

/** A scaling record with its epoch's number, where a batch or a page of them ends. */
interface EpochRecord {
  epoch: number;
  record: ScaleRecord;
}

@Injectable()
export class StreamsService {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly streams: StreamsRepository,
    private readonly scopes: ScopesService,
    private readonly audit: AuditService,
    private readonly pages: Paginator,
  ) {}

  /** Creates the stream and its `_MARK` companion in one transaction. */
  async create(
    actor: Actor,
    scope: string,
    request: StreamConfigurationInput & { streamName: string },
  ): Promise<Tagged<StreamPropertyDto>> {
    const config = toStreamConfiguration(request);
    const name = request.streamName;
    return this.db.withTransaction(async () => {
      const stream = await this.streams.create(scope, name, config);
      const created = toStreamProperty(stream);
      await this.audit.changed(actor, {
        operation: Operation.createStream,
        resource: streamResource(scope, name),
        after: created,
      });
      return { body: created, etag: entityTagOf(stream.revision) };
    });
  }

  /**
   * A page of the streams, or all of them, read in batches while the answer is sent. Only an
   * empty read asks whether the scope exists.
   */
  async list(
    scope: string,
    filter: StreamFilter,
    query: PageQueryDto,
  ): Promise<ListAnswer<StreamPropertyDto>> {
    const request = await this.pages.request<string>(['streams', scope, filter], query);
    const read = async (keyset: Keyset<string>) => {
      const streams = await this.streams.findByScope(scope, filter, keyset);
      if (streams.length === 0) await this.scopes.assertExists(scope);
      return streams;
    };
    const positionOf = (stream: Stream) => stream.name;
    return this.pages.answer('streams', request, { read, positionOf }, toStreamProperty);
  }

  /** The user streams of several scopes as GET shows them, with state and version. */
  async userStreamsIn(scopes: string[], lock: boolean): Promise<ScopedStream[]> {
    const records = await this.streams.findUserStreamsIn(scopes, lock);
    return records.map((record) => ({
      property: toStreamProperty(record),
      sealed: record.state === 'SEALED',
      revision: record.revision,
    }));
  }

  get(scope: string, name: string): Promise<Tagged<StreamPropertyDto>> {
    return this.scopes.within(scope, async () => {
      const stream = await this.streams.findOne(scope, name);
      if (!stream) throw new StreamNotFoundError(scope, name);
      return { body: toStreamProperty(stream), etag: entityTagOf(stream.revision) };
    });
  }

  /**
   * The stream, its current epoch and segments and the groups that read it, all as of one
   * instant (one snapshot), with the stream's entity tag.
   */
  describe(scope: string, name: string): Promise<Tagged<StreamDescriptionDto>> {
    return this.scopes.within(scope, () =>
      this.db.withTransaction({ isolationLevel: 'REPEATABLE READ' }, async () => {
        const stream = await this.streams.findDescribed(scope, name);
        if (!stream) throw new StreamNotFoundError(scope, name);
        const epoch = await this.streams.currentEpoch(scope, name);
        const segments = await this.streams.segmentsOf(
          scope,
          name,
          epoch.activeSegments,
          epoch.epoch,
          epoch.epoch,
        );
        return {
          body: toStreamDescription(stream, epoch, segments),
          etag: entityTagOf(stream.revision),
        };
      }),
    );
  }

  /** Replaces the whole configuration of an active user stream, rescaling it if need be. */
  async update(
    actor: Actor,
    scope: string,
    name: string,
    request: StreamConfigurationInput,
    condition?: TagCondition,
  ): Promise<Tagged<StreamPropertyDto>> {
    const config = toStreamConfiguration(request);
    return this.changeUserStream(scope, name, condition, async (stream) => {
      if (stream.state === 'SEALED') throw new StreamSealedError(scope, name);
      const revision = await this.streams.updateConfiguration(scope, name, config);
      await this.applyScaling(scope, name, config);
      const after = toStreamProperty({ ...stream, configuration: config });
      await this.audit.changed(actor, {
        operation: Operation.updateStream,
        resource: streamResource(scope, name),
        before: toStreamProperty(stream),
        after,
      });
      return { body: after, etag: entityTagOf(revision) };
    });
  }

  /** Seals the stream and its companion; sealing a sealed stream changes nothing. */
  async seal(
    actor: Actor,
    scope: string,
    name: string,
    condition?: TagCondition,
  ): Promise<Tagged<StreamStateDto>> {
    const revision = await this.changeUserStream(scope, name, condition, async (stream) => {
      if (stream.state === 'SEALED') return stream.revision;
      const sealed = await this.streams.seal(scope, name);
      await this.audit.changed(actor, {
        operation: Operation.updateStreamState,
        resource: streamResource(scope, name),
        after: { streamState: 'SEALED' },
      });
      return sealed;
    });
    return { body: { streamState: 'SEALED' }, etag: entityTagOf(revision) };
  }

  /** Deletes a sealed stream; its companion goes with it. */
  async delete(actor: Actor, scope: string, name: string, condition?: TagCondition): Promise<void> {
    await this.changeUserStream(scope, name, condition, async (stream) => {
      if (stream.state !== 'SEALED') throw new StreamNotSealedError(scope, name);
      await this.streams.delete(scope, name);
      await this.audit.changed(actor, {
        operation: Operation.deleteStream,
        resource: streamResource(scope, name),
      });
    });
  }

  /**
   * The scaling history of a stream (internal streams included) within [from, to]: a page, or
   * all of it, read in batches while the answer is sent.
   */
  async scalingEvents(
    scope: string,
    name: string,
    window: TimeWindow,
    query: PageQueryDto,
  ): Promise<ListAnswer<ScaleRecord>> {
    const { from, to } = window;
    const request = await this.pages.request<number>(
      ['scaling-events', scope, name, from, to],
      query,
    );
    const read = (keyset: Keyset<number>) =>
      this.scopes.within(scope, () => this.windowRecords(scope, name, window, keyset));
    const positionOf = (row: EpochRecord) => row.epoch;
    return this.pages.answer('scalingEvents', request, { read, positionOf }, (row) => row.record);
  }

  /**
   * The records of the window's epochs after epoch `after` (from the window's start without
   * it), at most `take` of them. Epoch `after` is read ahead of them, so that the first
   * record's splits and merges count against it, as in the whole answer.
   */
  private async windowRecords(
    scope: string,
    name: string,
    { from, to }: TimeWindow,
    { after, take }: Keyset<number>,
  ): Promise<EpochRecord[]> {
    const lead = after === undefined ? 0 : 1;
    const epochs =
      after === undefined
        ? selectWindow(await this.streams.epochsAround(scope, name, from, to, take), from, to)
        : await this.streams.epochsFrom(scope, name, after, to, take + lead);
    // A stream always has an epoch: none at all may mean no stream.
    if (epochs.length === 0 && !(await this.streams.exists(scope, name))) {
      throw new StreamNotFoundError(scope, name);
    }
    const records = await this.scaleRecords(scope, name, epochs);
    return records.slice(lead).map((record, i) => ({ epoch: epochs[i + lead].epoch, record }));
  }

  /** One record per epoch (consecutive ones), the first without splits or merges. */
  private async scaleRecords(
    scope: string,
    name: string,
    epochs: CurrentEpoch[],
  ): Promise<ScaleRecord[]> {
    if (epochs.length === 0) return [];
    const first = epochs[0];
    const last = epochs[epochs.length - 1].epoch;
    const segments = await this.streams.segmentsOf(
      scope,
      name,
      first.activeSegments,
      first.epoch,
      last,
    );
    return buildScaleRecords(epochs, segments);
  }

  /**
   * Scales the stream when its new policy asks for it: every active segment is sealed and
   * `minSegments` equal ones replace them in a new epoch.
   */
  private async applyScaling(
    scope: string,
    name: string,
    config: StreamConfiguration,
  ): Promise<void> {
    const current = await this.streams.currentEpoch(scope, name);
    if (!needsRescale(config.scaling, current.activeSegments.length)) return;
    const time = nextEpochTime(current.timestamp, Date.now());
    await this.streams.rescale(scope, name, current, config.scaling.minSegments, time);
  }

  /**
   * Runs a change of a user stream in one transaction, its row locked first so that writers
   * take turns, and `If-Match` is checked against the version the change starts from.
   */
  private changeUserStream<T>(
    scope: string,
    name: string,
    condition: TagCondition | undefined,
    change: (stream: Stream) => Promise<T>,
  ): Promise<T> {
    return this.scopes.within(scope, () =>
      this.db.withTransaction(async () => {
        const stream = await this.streams.lockOne(scope, name);
        if (!stream) throw new StreamNotFoundError(scope, name);
        if (isInternalStreamName(name)) throw new InternalStreamError(scope, name);
        requireMatch(condition, `stream ${scope}/${name}`, stream.revision);
        return change(stream);
      }),
    );
  }
}
