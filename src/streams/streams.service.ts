import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { streamResource } from '../auth/resources';
import { isForeignKeyViolation, PgCode, sqlState } from '../common/errors/postgres-errors';
import { isInternalStreamName, markStreamName } from '../common/names';
import { ScaleRecord } from '../scaling/scaling-history';
import { StreamHistoryService } from '../scaling/stream-history.service';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import { ScopesService } from '../scopes/scopes.service';
import { CreateStreamDto } from './dto/create-stream.dto';
import { StreamPropertyDto } from './dto/stream-property.dto';
import { StreamStateDto } from './dto/stream-state.dto';
import { StreamsListDto } from './dto/streams-list.dto';
import { UpdateStreamDto } from './dto/update-stream.dto';
import {
  INTERNAL_STREAM_CONFIGURATION,
  StreamConfiguration,
  toStreamConfiguration,
} from './stream-configuration';
import { StreamFilter } from './stream-filter';
import { StreamEntity } from './stream.entity';
import {
  InternalStreamError,
  StreamExistsError,
  StreamNotFoundError,
  StreamNotSealedError,
  StreamSealedError,
} from './stream.errors';
import { configurationColumns, toStreamProperty } from './stream.mapper';
import { StreamRecord, StreamsRepository } from './streams.repository';

@Injectable()
export class StreamsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly streams: StreamsRepository,
    private readonly scopes: ScopesService,
    private readonly history: StreamHistoryService,
    private readonly audit: AuditService,
  ) {}

  /** Creates the stream and its `_MARK` companion in one transaction. */
  async create(scope: string, request: CreateStreamDto): Promise<StreamPropertyDto> {
    const config = toStreamConfiguration(request);
    const name = request.streamName;
    try {
      return await this.dataSource.transaction(async (tx) => {
        const created = toStreamProperty(
          await this.insertWithCompanion(tx, scope, name, config, {}),
        );
        await this.audit.changed(tx, {
          operation: 'createStream',
          resource: streamResource(scope, name),
          after: created,
        });
        return created;
      });
    } catch (error) {
      if (sqlState(error) === PgCode.uniqueViolation) throw new StreamExistsError(scope, name);
      if (isForeignKeyViolation(error)) throw new ScopeNotFoundError(scope);
      throw error;
    }
  }

  /** One query; only an empty answer asks whether the scope exists. */
  async list(scope: string, filter: StreamFilter): Promise<StreamsListDto> {
    const streams = await this.streams.findByScope(scope, filter);
    if (streams.length === 0) await this.scopes.assertExists(scope);
    return { streams: streams.map(toStreamProperty) };
  }

  async get(scope: string, name: string): Promise<StreamPropertyDto> {
    const stream = await this.streams.findOne(scope, name);
    if (!stream) return this.notFound(scope, name);
    return toStreamProperty(stream);
  }

  /** Replaces the whole configuration of an active user stream. */
  async update(scope: string, name: string, request: UpdateStreamDto): Promise<StreamPropertyDto> {
    const config = toStreamConfiguration(request);
    const updated = await this.dataSource.transaction(async (tx) => {
      const stream = await this.lockUserStream(tx, scope, name);
      if (stream.state === 'SEALED') throw new StreamSealedError(scope, name);
      const columns = configurationColumns(config);
      await this.streams.updateConfiguration(tx, scope, name, columns);
      await this.history.applyPolicy(tx, scope, name, config.scaling);
      const after = toStreamProperty({ ...stream, ...columns });
      await this.audit.changed(tx, {
        operation: 'updateStream',
        resource: streamResource(scope, name),
        before: toStreamProperty(stream),
        after,
      });
      return after;
    });
    return updated;
  }

  /** Seals the stream and its companion; sealing a sealed stream changes nothing. */
  async seal(scope: string, name: string): Promise<StreamStateDto> {
    await this.dataSource.transaction(async (tx) => {
      const stream = await this.lockUserStream(tx, scope, name);
      if (stream.state === 'SEALED') return;
      await tx.update(
        StreamEntity,
        [
          { scopeName: scope, name },
          { scopeName: scope, name: markStreamName(name) },
        ],
        { state: 'SEALED' },
      );
      await this.audit.changed(tx, {
        operation: 'updateStreamState',
        resource: streamResource(scope, name),
        after: { streamState: 'SEALED' },
      });
    });
    return { streamState: 'SEALED' };
  }

  /** Deletes a sealed stream; its companion goes with it (foreign key cascade). */
  async delete(scope: string, name: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const stream = await this.lockUserStream(tx, scope, name);
      if (stream.state !== 'SEALED') throw new StreamNotSealedError(scope, name);
      await tx.delete(StreamEntity, { scopeName: scope, name });
      await this.audit.changed(tx, {
        operation: 'deleteStream',
        resource: streamResource(scope, name),
      });
    });
  }

  /** The scaling history of a stream (internal streams included) within [from, to]. */
  async scalingEvents(
    scope: string,
    name: string,
    from: number,
    to: number,
  ): Promise<ScaleRecord[]> {
    const events = await this.history.scalingEvents(scope, name, from, to);
    // A stream always has an epoch: no event at all may mean no stream.
    if (events.length === 0 && !(await this.streams.exists(scope, name))) {
      return this.notFound(scope, name);
    }
    return events;
  }

  /**
   * Inserts a stream, its `_MARK` companion and the epoch 0 of each, inside the caller's
   * transaction. Reader groups use it for their `_RG` stream (`owner.readerGroup`).
   */
  async insertWithCompanion(
    tx: EntityManager,
    scope: string,
    name: string,
    config: StreamConfiguration,
    owner: { readerGroup?: string },
  ): Promise<StreamRecord> {
    const columns = configurationColumns(config);
    const mark = markStreamName(name);
    await this.streams.insert(tx, scope, [
      { name, ownerStream: null, ownerReaderGroup: owner.readerGroup ?? null, columns },
      {
        name: mark,
        ownerStream: name,
        ownerReaderGroup: null,
        columns: configurationColumns(INTERNAL_STREAM_CONFIGURATION),
      },
    ]);
    await this.history.begin(tx, scope, name, config.scaling.minSegments);
    await this.history.begin(tx, scope, mark, INTERNAL_STREAM_CONFIGURATION.scaling.minSegments);
    return { scopeName: scope, name, state: 'ACTIVE', ...columns };
  }

  /** Locks a user stream's row for the rest of the transaction, so writers take turns. */
  private async lockUserStream(
    tx: EntityManager,
    scope: string,
    name: string,
  ): Promise<StreamRecord> {
    const stream = await this.streams.lockOne(tx, scope, name);
    if (!stream) return this.notFound(scope, name);
    if (isInternalStreamName(name)) throw new InternalStreamError(scope, name);
    return stream;
  }

  /** Says which of the two is missing: the scope or the stream. */
  private async notFound(scope: string, name: string): Promise<never> {
    await this.scopes.assertExists(scope);
    throw new StreamNotFoundError(scope, name);
  }
}
