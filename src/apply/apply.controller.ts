import { Body, Controller, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtension,
  ApiHeader,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Actor } from '../audit/actor';
import { RequestActor } from '../audit/actor';
import type { Principal } from '../auth/auth.service';
import { Needs } from '../auth/needs';
import { RequestAccess } from '../auth/request-access.decorator';
import { IfMatch } from '../conditional/conditional-headers';
import type { TagCondition } from '../conditional/entity-tag';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { Operation, OperationOf } from '../common/operations';
import type { ApplyAnswer } from './plan-answer';
import { ApplyDocumentDto } from './apply-document.dto';
import { ApplyService } from './apply.service';
import { ApplyAnswerDto } from './dto/apply-answer.dto';
import { DryRunQueryDto } from '../common/dry-run-query.dto';

/** Where documents are applied; the request pipeline gives this path its own body limit. */
export const APPLY_PATH = 'v1/apply';

@ApiTags('Scopes')
@Controller(APPLY_PATH)
export class ApplyController {
  constructor(private readonly service: ApplyService) {}

  /**
   * Makes the listed scopes match a document: creates, updates and (with `prune`) deletes
   * streams and reader groups, all in one transaction or none (extension).
   */
  @Post()
  @HttpCode(HttpStatus.OK)
  @Idempotent()
  @ApiExtension('x-extension', true)
  @ApiConsumes('application/json', 'application/yaml')
  @ApiBody({ type: ApplyDocumentDto })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The `planVersion` of a dry run: refuse (412) if anything it read has changed.',
  })
  @ApiOkResponse({ type: ApplyAnswerDto, description: 'The plan, applied unless `dryRun`.' })
  @ApiProblemResponses(400, 403, 409, 412, 413, 415, 422, 500, 503)
  @Needs.anyAccount()
  @OperationOf(Operation.applyDocument)
  applyDocument(
    @RequestActor() actor: Actor,
    @RequestAccess() access: Principal | undefined,
    @Query() query: DryRunQueryDto,
    @IfMatch() ifMatch: TagCondition | undefined,
    @Body() body: unknown,
  ): Promise<ApplyAnswer> {
    return this.service.apply(actor, access, body, {
      dryRun: query.dryRun === 'true',
      ifMatch,
    });
  }
}
