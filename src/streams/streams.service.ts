import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditService } from '../audit/audit.service';
import { streamResource } from '../auth/resources';
import { isInternalStreamName } from '../common/names';
import { Operation } from '../common/operations';
import type { Db } from '../database/db';
import { InjectDb } from '../database/db';
import { needsRescale } from '../scaling/scaling-decision';
import {
  buildScaleRecords,
  nextEpochTime,
  ScaleRecord,
  selectWindow,
} from '../scaling/scaling-history';
import { ScopesService } from '../scopes/scopes.service';
import { StreamPropertyDto } from './dto/stream-property.dto';
import { StreamStateDto } from './dto/stream-state.dto';
import { StreamsListDto } from './dto/streams-list.dto';
import {
  StreamConfiguration,
  StreamConfigurationInput,
  toStreamConfiguration,
} from './stream-configuration';
import { StreamFilter } from './stream-filter';
import type { Stream } from './stream';
import {
  InternalStreamError,
  StreamNotFoundError,
  StreamNotSealedError,
  StreamSealedError,
} from './stream.errors';
import { toStreamProperty } from './stream.mapper';
import { StreamsRepository } from './streams.repository';

@Injectable()
export class StreamsService {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly streams: StreamsRepository,
    private readonly scopes: ScopesService,
    private readonly audit: AuditService,
  ) {}

  /** Creates the stream and its `_MARK` companion in one transaction. */
  async create(
    actor: Actor,
    scope: string,
    request: StreamConfigurationInput & { streamName: string },
  ): Promise<StreamPropertyDto> {
    const config = toStreamConfiguration(request);
    const name = request.streamName;
    return this.db.withTransaction(async () => {
      const created = toStreamProperty(await this.streams.create(scope, name, config));
      await this.audit.changed(actor, {
        operation: Operation.createStream,
        resource: streamResource(scope, name),
        after: created,
      });
      return created;
    });
  }

  /** One query; only an empty answer asks whether the scope exists. */
  async list(scope: string, filter: StreamFilter): Promise<StreamsListDto> {
    const streams = await this.streams.findByScope(scope, filter);
    if (streams.length === 0) await this.scopes.assertExists(scope);
    return { streams: streams.map(toStreamProperty) };
  }

  get(scope: string, name: string): Promise<StreamPropertyDto> {
    return this.scopes.within(scope, async () => {
      const stream = await this.streams.findOne(scope, name);
      if (!stream) throw new StreamNotFoundError(scope, name);
      return toStreamProperty(stream);
    });
  }

  /** Replaces the whole configuration of an active user stream, rescaling it if need be. */
  async update(
    actor: Actor,
    scope: string,
    name: string,
    request: StreamConfigurationInput,
  ): Promise<StreamPropertyDto> {
    const config = toStreamConfiguration(request);
    return this.changeUserStream(scope, name, async (stream) => {
      if (stream.state === 'SEALED') throw new StreamSealedError(scope, name);
      await this.streams.updateConfiguration(scope, name, config);
      await this.applyScaling(scope, name, config);
      const after = toStreamProperty({ ...stream, configuration: config });
      await this.audit.changed(actor, {
        operation: Operation.updateStream,
        resource: streamResource(scope, name),
        before: toStreamProperty(stream),
        after,
      });
      return after;
    });
  }

  /** Seals the stream and its companion; sealing a sealed stream changes nothing. */
  async seal(actor: Actor, scope: string, name: string): Promise<StreamStateDto> {
    await this.changeUserStream(scope, name, async (stream) => {
      if (stream.state === 'SEALED') return;
      await this.streams.seal(scope, name);
      await this.audit.changed(actor, {
        operation: Operation.updateStreamState,
        resource: streamResource(scope, name),
        after: { streamState: 'SEALED' },
      });
    });
    return { streamState: 'SEALED' };
  }

  /** Deletes a sealed stream; its companion goes with it. */
  async delete(actor: Actor, scope: string, name: string): Promise<void> {
    await this.changeUserStream(scope, name, async (stream) => {
      if (stream.state !== 'SEALED') throw new StreamNotSealedError(scope, name);
      await this.streams.delete(scope, name);
      await this.audit.changed(actor, {
        operation: Operation.deleteStream,
        resource: streamResource(scope, name),
      });
    });
  }

  /** The scaling history of a stream (internal streams included) within [from, to]. */
  scalingEvents(scope: string, name: string, from: number, to: number): Promise<ScaleRecord[]> {
    return this.scopes.within(scope, async () => {
      const found = await this.streams.epochsAround(scope, name, from, to);
      // A stream always has an epoch: none at all may mean no stream.
      if (found.length === 0 && !(await this.streams.exists(scope, name))) {
        throw new StreamNotFoundError(scope, name);
      }
      const epochs = selectWindow(found, from, to);
      if (epochs.length === 0) return [];
      const first = epochs[0].epoch;
      const last = epochs[epochs.length - 1].epoch;
      const activeAtFirst = found.find((epoch) => epoch.epoch === first)!.activeSegments;
      const segments = await this.streams.segmentsOf(scope, name, activeAtFirst, first, last);
      return buildScaleRecords(epochs, segments);
    });
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
   * take turns.
   */
  private changeUserStream<T>(
    scope: string,
    name: string,
    change: (stream: Stream) => Promise<T>,
  ): Promise<T> {
    return this.scopes.within(scope, () =>
      this.db.withTransaction(async () => {
        const stream = await this.streams.lockOne(scope, name);
        if (!stream) throw new StreamNotFoundError(scope, name);
        if (isInternalStreamName(name)) throw new InternalStreamError(scope, name);
        return change(stream);
      }),
    );
  }
}
