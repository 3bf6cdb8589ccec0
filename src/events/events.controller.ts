import { Controller, Get, Headers, Ip, Query, UseInterceptors } from '@nestjs/common';
import {
  ApiExtension,
  ApiExtraModels,
  ApiHeader,
  ApiProduces,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Needs } from '../auth/needs';
import type { Principal } from '../auth/principal';
import { RequestAccess } from '../auth/request-access.decorator';
import { Operation, OperationOf } from '../common/operations';
import { ClientGone } from '../http/client-gone.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { ChangeEventDto, ChangeEventsPageDto } from './dto/change-event.dto';
import { EventsQueryDto } from './dto/events-query.dto';
import {
  EventFeedInterceptor,
  EVENT_STREAM_TYPE,
  wantsEventStream,
} from './event-feed.interceptor';
import type { EventStream } from './event-stream';
import { FeedAccess } from './feed-access.service';
import { EventsService, FeedPage } from './events.service';
import { holderOf } from './watcher-slots';

@ApiTags('Scopes')
@Controller('v1/events')
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly access: FeedAccess,
  ) {}

  /**
   * Follows every change of scopes, streams and reader groups (extension): a page of the events
   * after `since`, a long poll (`wait`), or with `Accept: text/event-stream` a stream of
   * Server-Sent Events that resumes after `Last-Event-ID`.
   */
  @Get()
  @UseInterceptors(EventFeedInterceptor)
  @Needs.readOnFeed()
  @ApiExtension('x-extension', true)
  @ApiExtraModels(ChangeEventsPageDto, ChangeEventDto)
  @ApiProduces('application/json', EVENT_STREAM_TYPE)
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description:
      'With `Accept: text/event-stream`: the id of the last event received; the stream starts ' +
      'after it (it wins over `since`).',
    schema: { type: 'string', pattern: '^[0-9]{1,19}$' },
  })
  @ApiResponse({
    status: 200,
    description:
      'A page of the feed (`application/json`), or, with `Accept: text/event-stream`, a stream ' +
      'that never ends by itself but at shutdown: per event `id: <id>`, `event: <operation>`, ' +
      '`data: <ChangeEvent JSON>` and a blank line, and a comment line (`:`) at least every 15 s.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ChangeEventsPageDto) } },
      [EVENT_STREAM_TYPE]: {
        schema: { type: 'string' },
        example:
          ': connected\n\nid: 42\nevent: createStream\ndata: {"id":"42","time":1764600000000,' +
          '"operation":"createStream","kind":"stream","resource":"prn::/scope:sales/stream:orders",' +
          '"scopeName":"sales","streamName":"orders","principal":"anonymous"}\n\n',
      },
    },
  })
  @ApiProblemResponses(400, 410, 500, 503)
  @OperationOf(Operation.listEvents)
  listEvents(
    @Query() query: EventsQueryDto,
    @Headers('accept') accept: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Headers('authorization') authorization: string | undefined,
    @RequestAccess() principal: Principal | undefined,
    @Ip() address: string | undefined,
    @ClientGone() gone: AbortSignal,
  ): Promise<FeedPage | EventStream> {
    const viewer = this.access.viewerOf(principal, { authorization });
    const watcher = { holder: holderOf(principal, address), gone };
    return wantsEventStream(accept)
      ? this.events.stream(query, lastEventId, viewer, watcher)
      : this.events.page(query, viewer, watcher);
  }
}
