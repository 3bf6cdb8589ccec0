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

  /** The account, or `anonymous`. */
  principal: string;

  clientAddress?: string;
  userAgent?: string;
  /** The request's `X-Request-Id`. */
  requestId?: string;
  /** The operation's id in this document. */
  operation: string;
  /** The resource, named as in ACLs. */
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
