import type { Actor } from '../audit/actor';
import { ListAnswer } from '../pagination/list-answer';
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
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ConditionalRead,
  ConditionalWrite,
  TaggedAnswer,
} from '../conditional/conditional.decorators';
import { IfMatch } from '../conditional/conditional-headers';
import type { Tagged } from '../conditional/resource-version';
import { Idempotent } from '../idempotency/idempotent.decorator';
import type { TagCondition } from '../conditional/entity-tag';
import { Needs } from '../auth/needs';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { Paged } from '../pagination/paged.decorator';
import { ScalingEventListDto } from '../scaling/dto/scaling-event-list.dto';
import { ScalingEventsQueryDto } from '../scaling/dto/scaling-events-query.dto';
import { toTimeWindow } from '../scaling/time-window';
import { CreateStreamDto } from './dto/create-stream.dto';
import { ListStreamsQueryDto } from './dto/list-streams-query.dto';
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
  @Idempotent()
  @TaggedAnswer(201, StreamPropertyDto)
  @ApiProblemResponses(400, 404, 409, 413, 415, 500, 503)
  @Needs.readUpdateOnScope()
  @OperationOf(Operation.createStream)
  createStream(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Body() body: CreateStreamDto,
  ): Promise<Tagged<StreamPropertyDto>> {
    return this.streams.create(actor, scopeName, body);
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
  @ConditionalRead(StreamPropertyDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnStream()
  @OperationOf(Operation.getStream)
  getStream(
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
  ): Promise<Tagged<StreamPropertyDto>> {
    return this.streams.get(scopeName, streamName);
  }

  /** Replaces the configuration of a stream. */
  @Put(':streamName')
  @TaggedAnswer(200, StreamPropertyDto)
  @ConditionalWrite()
  @ApiProblemResponses(400, 404, 412, 413, 415, 500, 503)
  @Needs.readUpdateOnStream()
  @OperationOf(Operation.updateStream)
  updateStream(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Body() body: UpdateStreamDto,
    @IfMatch() condition: TagCondition | undefined,
  ): Promise<Tagged<StreamPropertyDto>> {
    return this.streams.update(actor, scopeName, streamName, body, condition);
  }

  /** Lists the scaling events (epochs) of a stream in a time window. */
  @Get(':streamName/scaling-events')
  @Paged(ScalingEventListDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnStream()
  @OperationOf(Operation.getScalingEvents)
  getScalingEvents(
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Query() query: ScalingEventsQueryDto,
  ): Promise<ListAnswer<ScalingEventListDto['scalingEvents'][number]>> {
    const { from, to } = toTimeWindow(query);
    return this.streams.scalingEvents(scopeName, streamName, { from, to }, query);
  }

  /** Seals a stream: no more writes, and it may then be deleted. */
  @Put(':streamName/state')
  @TaggedAnswer(200, StreamStateDto)
  @ConditionalWrite()
  @ApiProblemResponses(400, 404, 412, 413, 415, 500, 503)
  @Needs.readUpdateOnStream()
  @OperationOf(Operation.updateStreamState)
  updateStreamState(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Body() _body: StreamStateDto,
    @IfMatch() condition: TagCondition | undefined,
  ): Promise<Tagged<StreamStateDto>> {
    return this.streams.seal(actor, scopeName, streamName, condition);
  }

  /** Deletes a sealed stream. */
  @Delete(':streamName')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ConditionalWrite()
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
