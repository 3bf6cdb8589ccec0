import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditedChanges, Changed, ChangeTarget } from '../audit/audited-changes.service';
import { streamResource } from '../auth/resources';
import { isInternalStreamName, READER_GROUP_PREFIX } from '../common/names';
import { Operation } from '../common/operations';
import type { TagCondition } from '../conditional/entity-tag';
import { ResourceVersion, Tagged } from '../conditional/resource-version';
import type { Keyset } from '../database/keyset';
import { ListAnswer } from '../pagination/list-answer';
import type { PageQueryDto } from '../pagination/page-query.dto';
import { Paginator } from '../pagination/paginator';
import type { StandingStream } from '../policies/compliance';
import { NO_POLICY } from '../policies/scope-policies.repository';
import { activeSegmentsAfter, needsRescale } from '../scaling/scaling-decision';
import { equalKeyRanges } from '../scaling/key-ranges';
import {
  buildScaleRecords,
  Epoch,
  nextEpochTime,
  ScaleRecord,
  SegmentRecord,
  selectWindow,
} from '../scaling/scaling-history';
import type { TimeWindow } from '../scaling/time-window';
import { ScopesService } from '../scopes/scopes.service';
import { StreamPropertyDto } from './dto/stream-property.dto';
import { StreamStateDto } from './dto/stream-state.dto';
import {
  INTERNAL_STREAM_CONFIGURATION,
  StreamConfiguration,
  StreamConfigurationInput,
  toStreamConfiguration,
} from './stream-configuration';
import { StreamFilter } from './stream-filter';
import type { Stream, StreamTimes } from './stream';
import {
  InternalStreamError,
  StreamNotFoundError,
  StreamNotSealedError,
  StreamSealedError,
} from './stream.errors';
import { toStreamProperty } from './stream.mapper';
import { HeldPolicy, StreamPolicyChecks } from './stream-policy-checks.service';
import { type ScaleBase, StreamsRepository } from './streams.repository';
import type { ListedStream } from './stream.entity';

/** A stream of a listing of several scopes. */
export interface ScopedStream {
  property: StreamPropertyDto;
  sealed: boolean;
  revision: ResourceVersion;
}

export interface PolicedOptions {
  /**
   * The caller has held the change to its scope's policy already, with the other changes it
   * makes with it, and holds the policy's lock: an apply, whose creates may pass only once its
   * prune has run (docs/extensions.md section 5).
   */
  policyJudged?: boolean;
}

/** A stream as it is now: with its times, its current epoch and that epoch's segments. */
export interface StreamSnapshot {
  stream: Stream & StreamTimes;
  epoch: Epoch;
  segments: SegmentRecord[];
}

/** A scaling record with its epoch's number, where a batch or a page of them ends. */
interface EpochRecord {
  epoch: number;
  record: ScaleRecord;
}

@Injectable()
export class StreamsService {
  constructor(
    private readonly streams: StreamsRepository,
    private readonly scopes: ScopesService,
    private readonly changes: AuditedChanges,
    private readonly pages: Paginator,
    private readonly policy: StreamPolicyChecks,
  ) {}

  /**
   * Creates the stream and its `_MARK` companion in one transaction, if its scope's policy
   * allows the stream.
   */
  create(
    actor: Actor,
    scope: string,
    request: StreamConfigurationInput & { streamName: string },
    options: PolicedOptions = {},
  ): Promise<Tagged<StreamPropertyDto>> {
    const config = toStreamConfiguration(request);
    const name = request.streamName;
    return this.changes.create(actor, async () => {
      if (!options.policyJudged) {
        await this.policy.check(scope, {
          what: `Creating stream ${scope}/${name}`,
          produced: { stream: { name, configuration: config }, change: 'create' },
          addsStream: true,
          segments: { before: 0, after: config.scaling.minSegments },
        });
      }
      const stream = await this.streams.create(scope, name, config);
      const created = toStreamProperty(stream);
      const result = Tagged.of(created, stream.revision);
      return {
        result,
        audit: {
          operation: Operation.createStream,
          resource: streamResource(scope, name),
          after: created,
        },
        shown: () => Promise.resolve(result),
      };
    });
  }

  /**
   * Creates the `_RG` stream that holds a reader group's state (one fixed segment, 4 MiB
   * rollover), owned by the group: it goes when the group goes. Joins the group's transaction.
   */
  async createReaderGroupStream(scope: string, group: string): Promise<void> {
    const config = { ...INTERNAL_STREAM_CONFIGURATION, rolloverSizeBytes: 4_194_304 };
    await this.streams.create(scope, `${READER_GROUP_PREFIX}${group}`, config, group);
  }

  /**
   * Which of the streams (`scope/stream`) exist. Those found are locked against deletion until
   * the transaction ends, so a reference to one found here stays valid until then.
   */
  lockExisting(streams: { scope: string; stream: string }[]): Promise<Set<string>> {
    return this.streams.lockExisting(streams);
  }

  /** Which of `streams` exist, as scoped names ("scope/stream"), without locking them. */
  findExisting(streams: { scope: string; stream: string }[]): Promise<Set<string>> {
    return this.streams.findExisting(streams);
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
    const positionOf = (stream: ListedStream) => stream.name;
    const batches = (size: number) => this.streams.allByScope(scope, filter, size);
    return this.pages.answer('streams', request, { read, positionOf, batches }, toStreamProperty);
  }

  /** The active segments of each active user stream of the scopes, by `scope/stream`. */
  activeSegmentsIn(scopes: string[]): Promise<Map<string, number>> {
    return this.streams.activeSegmentCounts(scopes);
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

  /**
   * A scope's user streams as its policy judges them, by name: each one's configuration and
   * active segments. The caller reads both in one snapshot.
   */
  async standing(scope: string): Promise<StandingStream[]> {
    const streams = await this.streams.findUserStreamsIn([scope], false);
    const active = await this.streams.activeSegmentCounts([scope]);
    return streams.map((stream) => ({
      name: stream.name,
      configuration: stream.configuration,
      activeSegments: active.get(`${scope}/${stream.name}`) ?? 0,
    }));
  }

  get(scope: string, name: string): Promise<Tagged<StreamPropertyDto>> {
    return this.scopes.within(scope, async () => {
      const stream = await this.streams.findOne(scope, name);
      if (!stream) throw new StreamNotFoundError(scope, name);
      return Tagged.of(toStreamProperty(stream), stream.revision);
    });
  }

  /**
   * The stream with its times: 404 for a missing scope or stream. Its creation time tells
   * what was recorded of it from what was recorded of a stream of the same name before it.
   */
  withTimes(scope: string, name: string): Promise<Stream & StreamTimes> {
    return this.scopes.within(scope, async () => {
      const stream = await this.streams.findWithTimes(scope, name);
      if (!stream) throw new StreamNotFoundError(scope, name);
      return stream;
    });
  }

  /**
   * The stream with its times, its current epoch and that epoch's segments, all as of the
   * caller's transaction (a describe reads them in one snapshot). 404 when there is no stream.
   */
  async currentState(scope: string, name: string): Promise<StreamSnapshot> {
    const stream = await this.withTimes(scope, name);
    const epoch = await this.streams.currentEpoch(scope, name);
    const segments = await this.streams.segmentsAt(scope, name, epoch.epoch);
    return { stream, epoch, segments };
  }

  /** Replaces the whole configuration of an active user stream, rescaling it if need be. */
  update(
    actor: Actor,
    scope: string,
    name: string,
    request: StreamConfigurationInput,
    condition?: TagCondition,
    options: PolicedOptions = {},
  ): Promise<Tagged<StreamPropertyDto>> {
    const config = toStreamConfiguration(request);
    const policed = !options.policyJudged;
    const update = async (
      stream: Stream,
      policy: HeldPolicy,
    ): Promise<Changed<Tagged<StreamPropertyDto>>> => {
      if (stream.state === 'SEALED') throw new StreamSealedError(scope, name);
      const { revision, base } = await this.streams.updateConfiguration(scope, name, config);
      const active = base.segments.length;
      if (policed) {
        const after = activeSegmentsAfter(config.scaling, active);
        await this.policy.check(
          scope,
          {
            what: `Updating stream ${scope}/${name}`,
            produced: { stream: { name, configuration: config }, change: 'update' },
            addsStream: false,
            segments: { before: active, after },
          },
          policy,
        );
      }
      await this.applyScaling(scope, name, config, base);
      const after = toStreamProperty({ ...stream, configuration: config });
      const result = Tagged.of(after, revision);
      return {
        result,
        audit: {
          operation: Operation.updateStream,
          resource: streamResource(scope, name),
          before: toStreamProperty(stream),
          after,
        },
        shown: () => Promise.resolve(result),
      };
    };
    return this.changeUserStream(actor, scope, name, condition, update, { readsPolicy: policed });
  }

  /** Seals the stream and its companion; sealing a sealed stream changes nothing. */
  seal(
    actor: Actor,
    scope: string,
    name: string,
    condition?: TagCondition,
  ): Promise<Tagged<StreamStateDto>> {
    const body: StreamStateDto = { streamState: 'SEALED' };
    const seal = async (stream: Stream): Promise<Changed<Tagged<StreamStateDto>>> => {
      if (stream.state === 'SEALED') return { result: Tagged.of(body, stream.revision) };
      return {
        result: Tagged.of(body, await this.streams.seal(scope, name)),
        audit: {
          operation: Operation.updateStreamState,
          resource: streamResource(scope, name),
          after: body,
        },
        shown: () => this.get(scope, name),
      };
    };
    return this.changeUserStream(actor, scope, name, condition, seal, { readsPolicy: false });
  }

  /** Deletes a sealed stream; its companion goes with it. */
  delete(actor: Actor, scope: string, name: string, condition?: TagCondition): Promise<void> {
    const remove = async (stream: Stream): Promise<Changed<void>> => {
      if (stream.state !== 'SEALED') throw new StreamNotSealedError(scope, name);
      await this.streams.delete(scope, name);
      return {
        result: undefined,
        audit: { operation: Operation.deleteStream, resource: streamResource(scope, name) },
      };
    };
    return this.changeUserStream(actor, scope, name, condition, remove, { readsPolicy: false });
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
  private async scaleRecords(scope: string, name: string, epochs: Epoch[]): Promise<ScaleRecord[]> {
    if (epochs.length === 0) return [];
    const [first, last] = [epochs[0].epoch, epochs[epochs.length - 1].epoch];
    const segments = await this.streams.segmentsOf(scope, name, first, last);
    return buildScaleRecords(epochs, segments);
  }

  /**
   * Scales the stream when its new policy asks for it: every active segment is sealed and
   * `minSegments` equal ones replace them in a new epoch, after `current`.
   */
  private async applyScaling(
    scope: string,
    name: string,
    config: StreamConfiguration,
    current: ScaleBase,
  ): Promise<void> {
    if (!needsRescale(config.scaling, current.segments.length)) return;
    const time = nextEpochTime(current.timestamp, Date.now());
    const sealed = current.segments.map((segment) => segment.number);
    const ranges = equalKeyRanges(config.scaling.minSegments);
    await this.streams.scaleUnanswered(scope, name, {
      epoch: current.epoch + 1,
      time,
      sealed,
      ranges,
    });
  }

  /**
   * Runs a change of a user stream (see {@link AuditedChanges.change}); internal ones are 412.
   * The changes of its segments (segments.service.ts) run through here too.
   */
  changeUserStream<T>(
    actor: Actor,
    scope: string,
    name: string,
    condition: TagCondition | undefined,
    change: (stream: Stream, policy: HeldPolicy) => Promise<Changed<T>>,
    { readsPolicy = true }: { readsPolicy?: boolean } = {},
  ): Promise<T> {
    // The policy is read before the stream's row is locked, by the changes it judges: not a
    // seal nor a delete, whose counts the commit settles, nor an apply, which read it already.
    let policy: HeldPolicy = { held: NO_POLICY };
    const target: ChangeTarget<Stream> = {
      what: `stream ${scope}/${name}`,
      lock: async () => {
        if (readsPolicy) policy = await this.policy.hold(scope);
        return this.streams.lockOne(scope, name);
      },
      missing: () => new StreamNotFoundError(scope, name),
      version: (stream) => stream.revision,
    };
    return this.scopes.within(scope, () =>
      this.changes.change(actor, target, condition, (stream) => {
        if (isInternalStreamName(name)) throw new InternalStreamError(scope, name);
        return change(stream, policy);
      }),
    );
  }
}
