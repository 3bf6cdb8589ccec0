import { Body, Controller, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../audit/actor';
import { RequestActor } from '../audit/actor';
import { Needs } from '../auth/needs';
import { DryRunQueryDto } from '../common/dry-run-query.dto';
import { Operation, OperationOf } from '../common/operations';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { LoadAnswerDto } from './dto/load-answer.dto';
import { LoadReportRequestDto } from './dto/load-report.dto';
import { LoadReportsService } from './load-reports.service';

/** Scaling by load (docs/extensions.md section 11). */
@ApiTags('Streams')
@Controller('v1/scopes/:scopeName/streams/:streamName/load')
export class LoadReportsController {
  constructor(private readonly loads: LoadReportsService) {}

  /**
   * Reports of the stream's segments' rates, taken in their order by the reference's rules of
   * scaling by load: hot segments split, cold neighbours merge (extension). With `dryRun=true`,
   * answers what would happen and changes nothing.
   */
  @Post()
  @HttpCode(HttpStatus.OK)
  @Idempotent()
  @ApiExtension('x-extension', true)
  @ApiOkResponse({ type: LoadAnswerDto })
  @ApiProblemResponses(400, 404, 413, 415, 500, 503)
  @Needs.readUpdateOnStream()
  @OperationOf(Operation.reportLoad)
  reportLoad(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Query() query: DryRunQueryDto,
    @Body() body: LoadReportRequestDto,
  ): Promise<LoadAnswerDto> {
    return this.loads.take(actor, scopeName, streamName, body.reports, query.dryRun === 'true');
  }
}
