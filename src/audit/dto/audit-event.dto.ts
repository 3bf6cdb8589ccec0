import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PageDto } from '../../pagination/page.dto';

/** One change, or one denied request. */
@ApiSchema({ name: 'AuditEvent' })
export class AuditEventDto {
  @ApiProperty({ format: 'int64' })
  id: number;

  /** When it happened, in milliseconds since 1970. */
  @ApiProperty({ format: 'int64' })
  time: number;

  /**
   * How many requests the event stands for: 1, but for requests refused for want of valid
   * credentials (401), counted in one event per client address and minute, which names the
   * first of them (its time, operation, resource and request id).
   */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1 })
  count: number;

  /** The account, or `anonymous`. */
  principal: string;

  clientAddress?: string;
  userAgent?: string;
  /** The request's `X-Request-Id`. */
  requestId?: string;
  /** The operation's id in this document. */
  operation: string;
  /**
   * The resource, named as in ACLs; one longer than 605 characters as its first 540, `…` and
   * the SHA-256 of the whole in hex (as are the principal and the client address).
   */
  resource: string;

  @ApiProperty({ enum: ['SUCCEEDED', 'DENIED'] })
  outcome: 'SUCCEEDED' | 'DENIED';

  /** The configuration before an update. */
  @ApiProperty({ type: Object, required: false })
  before?: object;

  /** What the change made. */
  @ApiProperty({ type: Object, required: false })
  after?: object;
}

@ApiSchema({ name: 'AuditEventsList' })
export class AuditEventsListDto extends PageDto {
  auditEvents: AuditEventDto[];
}
