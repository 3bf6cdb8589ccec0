import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** One change of a scope, stream or reader group (docs/extensions.md section 8). */
@ApiSchema({ name: 'ChangeEvent' })
export class ChangeEventDto {
  /** Its place in the feed, a decimal int64: ids increase in the order the changes committed. */
  @ApiProperty({ type: 'string', pattern: '^[0-9]{1,19}$', example: '42' })
  id: string;

  /** When the change was made, in milliseconds since 1970. */
  @ApiProperty({ format: 'int64' })
  time: number;

  /** The change's operationId in this document. */
  @ApiProperty({
    enum: [
      'createScope',
      'deleteScope',
      'createStream',
      'updateStream',
      'updateStreamState',
      'deleteStream',
      'scaleStream',
      'reportLoad',
      'createReaderGroup',
      'deleteReaderGroup',
      'setReaderOnline',
      'setReaderOffline',
    ],
  })
  operation: string;

  @ApiProperty({ enum: ['scope', 'stream', 'readerGroup'] })
  kind: 'scope' | 'stream' | 'readerGroup';

  /** The resource, named as in ACLs (`prn::/scope:S/stream:T`). */
  resource: string;

  scopeName: string;
  streamName?: string;
  readerGroupName?: string;

  /** Who made the change (`anonymous` without authentication). */
  principal: string;

  /** The `X-Request-Id` of the request that made it. */
  requestId?: string;

  /** The resource's entity tag after the change; absent after a delete. */
  etag?: string;

  /** The resource as its GET answers it after the change; absent after a delete. */
  @ApiPropertyOptional({ type: Object })
  object?: object;
}

/** A page of the feed. */
@ApiSchema({ name: 'ChangeEventsPage' })
export class ChangeEventsPageDto {
  events: ChangeEventDto[];

  /**
   * Where to follow from (`since` of the next request): the id of the last event answered, else
   * `since`; without `since`, the id of the newest event (`0` when there is none).
   */
  @ApiProperty({ type: 'string', pattern: '^[0-9]{1,19}$', example: '42' })
  position: string;
}
