import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiExtension, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../audit/actor';
import { RequestActor } from '../audit/actor';
import { Needs } from '../auth/needs';
import { Operation, OperationOf } from '../common/operations';
import { IfMatch } from '../conditional/conditional-headers';
import {
  ConditionalRead,
  ConditionalWrite,
  TaggedAnswer,
} from '../conditional/conditional.decorators';
import type { TagCondition } from '../conditional/entity-tag';
import type { Tagged } from '../conditional/resource-version';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { ScopePolicyDto } from './dto/scope-policy.dto';
import { ScopePoliciesService } from './scope-policies.service';

/** A scope's policy: the limits and rules a platform team sets on it (docs/extensions.md section 10). */
@ApiTags('Scopes')
@Controller('v1/scopes/:scopeName/policy')
export class ScopePoliciesController {
  constructor(private readonly policies: ScopePoliciesService) {}

  /** The scope's policy (`{}` when none was set), with an entity tag of its own (extension). */
  @Get()
  @ApiExtension('x-extension', true)
  @ConditionalRead(ScopePolicyDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnScope()
  @OperationOf(Operation.getScopePolicy)
  getScopePolicy(@Param('scopeName') scopeName: string): Promise<Tagged<ScopePolicyDto>> {
    return this.policies.get(scopeName);
  }

  /**
   * Replaces the scope's whole policy; `{}` clears it (extension). Needs READ_UPDATE on `prn::/`,
   * the right to create scopes: a scope's own writers cannot lift its limits.
   */
  @Put()
  @ApiExtension('x-extension', true)
  @TaggedAnswer(200, ScopePolicyDto)
  @ConditionalWrite()
  @ApiProblemResponses(400, 404, 412, 413, 415, 500, 503)
  @Needs.readUpdateOnRoot()
  @OperationOf(Operation.updateScopePolicy)
  updateScopePolicy(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Body() body: ScopePolicyDto,
    @IfMatch() condition: TagCondition | undefined,
  ): Promise<Tagged<ScopePolicyDto>> {
    return this.policies.replace(actor, scopeName, body, condition);
  }
}
