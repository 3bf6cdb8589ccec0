import type { Actor } from '../audit/actor';
import { ListAnswer } from '../common/pagination/list-answer';
import { RequestActor } from '../audit/actor';
import { Operation, OperationOf } from '../common/operations';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiExtension, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  ApiConditionalRead,
  ApiConditionalWrite,
  ApiTaggedResponse,
} from '../common/conditional/api-conditional';
import {
  IfMatch,
  IfNoneMatch,
  unlessNotModified,
  withEntityTag,
} from '../common/conditional/conditional-headers';
import type { TagCondition } from '../common/conditional/entity-tag';
import { Needs } from '../auth/needs';
import { ApiProblemResponses } from '../common/http/api-problem-responses';
import { Paged } from '../common/pagination/paged.decorator';
import { ScalingEventListDto } from '../scaling/dto/scaling-event-list.dto';
import { ScalingEventsQueryDto } from '../scaling/dto/scaling-events-query.dto';
import { toTimeWindow } from '../scaling/time-window';
import { CreateStreamDto } from './dto/create-stream.dto';
import { ListStreamsQueryDto } from './dto/list-streams-query.dto';
import { StreamDescriptionDto } from './dto/stream-description.dto';
import { StreamPropertyDto } from './dto/stream-property.dto';
import { StreamStateDto } from './dto/stream-state.dto';
import { StreamsListDto } from './dto/streams-list.dto';
import { UpdateStreamDto } from './dto/update-stream.dto';
import { toStreamFilter } from './stream-filter';
import { StreamsService } from './streams.service';

@ApiTags('Streams')
@Controller('v1/scopes/:scopeName/streams')
export class StreamsController {
  constructor(private readonly streams: StreamsService) {}

  /** Creates a new stream (and its internal `_MARK` companion). */
  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiTaggedResponse(201, StreamPropertyDto)
  @ApiProblemResponses(400, 404, 409, 413, 415, 500, 503)
  @Needs.readUpdateOnScope()
  @OperationOf(Operation.createStream)
  async createStream(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Body() body: CreateStreamDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamPropertyDto> {
    return withEntityTag(res, await this.streams.create(actor, scopeName, body));
  }

  /** Lists the streams of a scope: user streams, by tag, or the internal ones. */
  @Get()
  @Paged(StreamsListDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readableStreams()
  @OperationOf(Operation.listStreams)
  listStreams(
    @Param('scopeName') scopeName: string,
    @Query() query: ListStreamsQueryDto,
  ): Promise<ListAnswer<StreamsListDto['streams'][number]>> {
    return this.streams.list(scopeName, toStreamFilter(query), query);
  }

  /** Retrieves the properties of a stream. */
  @Get(':streamName')
  @ApiConditionalRead(StreamPropertyDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnStream()
  @OperationOf(Operation.getStream)
  async getStream(
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @IfNoneMatch() condition: TagCondition | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamPropertyDto> {
    return unlessNotModified(res, condition, await this.streams.get(scopeName, streamName));
  }

  /**
   * Describes a stream: state, times, configuration, current epoch and segments, and the
   * reader groups that read it (extension). Carries the stream's entity tag.
   */
  @Get(':streamName/description')
  @ApiExtension('x-extension', true)
  @ApiTaggedResponse(200, StreamDescriptionDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnStream()
  @OperationOf(Operation.describeStream)
  async describeStream(
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamDescriptionDto> {
    return withEntityTag(res, await this.streams.describe(scopeName, streamName));
  }

  /** Replaces the configuration of a stream. */
  @Put(':streamName')
  @ApiTaggedResponse(200, StreamPropertyDto)
  @ApiConditionalWrite()
  @ApiProblemResponses(400, 404, 412, 413, 415, 500, 503)
  @Needs.readUpdateOnStream()
  @OperationOf(Operation.updateStream)
  async updateStream(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Body() body: UpdateStreamDto,
    @IfMatch() condition: TagCondition | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamPropertyDto> {
    const updated = await this.streams.update(actor, scopeName, streamName, body, condition);
    return withEntityTag(res, updated);
  }

  /** Lists the scaling events (epochs) of a stream in a time window. */
  @Get(':streamName/scaling-events')
  @Paged(ScalingEventListDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnStream()
  @OperationOf(Operation.getScalingEvents)
  async getScalingEvents(
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Query() query: ScalingEventsQueryDto,
  ): Promise<ListAnswer<ScalingEventListDto['scalingEvents'][number]>> {
    const { from, to } = toTimeWindow(query);
    return this.streams.scalingEvents(scopeName, streamName, { from, to }, query);
  }

  /** Seals a stream: no more writes, and it may then be deleted. */
  @Put(':streamName/state')
  @ApiTaggedResponse(200, StreamStateDto)
  @ApiConditionalWrite()
  @ApiProblemResponses(400, 404, 412, 413, 415, 500, 503)
  @Needs.readUpdateOnStream()
  @OperationOf(Operation.updateStreamState)
  async updateStreamState(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Body() _body: StreamStateDto,
    @IfMatch() condition: TagCondition | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamStateDto> {
    return withEntityTag(res, await this.streams.seal(actor, scopeName, streamName, condition));
  }

  /** Deletes a sealed stream. */
  @Delete(':streamName')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiConditionalWrite()
  @ApiProblemResponses(400, 404, 412, 500, 503)
  @Needs.readUpdateOnStream()
  @OperationOf(Operation.deleteStream)
  deleteStream(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @IfMatch() condition: TagCondition | undefined,
  ): Promise<void> {
    return this.streams.delete(actor, scopeName, streamName, condition);
  }
}
