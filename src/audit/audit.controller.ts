import { Operation, OperationOf } from '../common/operations';
import { ListAnswer } from '../pagination/list-answer';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtension, ApiTags } from '@nestjs/swagger';
import { Needs } from '../auth/needs';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { Paged } from '../pagination/paged.decorator';
import { AuditService } from './audit.service';
import { AuditEventsListDto } from './dto/audit-event.dto';
import { AuditQueryDto } from './dto/audit-query.dto';

@ApiTags('Scopes')
@Controller('v1/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** Lists changes and denied requests, newest first (extension). */
  @Get()
  @Paged(AuditEventsListDto)
  @Needs.readUpdateOnRoot()
  @ApiExtension('x-extension', true)
  @ApiProblemResponses(400, 500, 503)
  @OperationOf(Operation.listAuditEvents)
  listAuditEvents(
    @Query() query: AuditQueryDto,
  ): Promise<ListAnswer<AuditEventsListDto['auditEvents'][number]>> {
    return this.audit.list(query);
  }
}
