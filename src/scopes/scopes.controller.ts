import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import type { ListAnswer } from '../pagination/list-answer';
import { PageQueryDto } from '../pagination/page-query.dto';
import { Paged } from '../pagination/paged.decorator';
import { CreateScopeDto } from './dto/create-scope.dto';
import { ScopePropertyDto } from './dto/scope-property.dto';
import { ScopesListDto } from './dto/scopes-list.dto';
import { ScopesService } from './scopes.service';

@ApiTags('Scopes')
@Controller('v1/scopes')
export class ScopesController {
  constructor(private readonly scopes: ScopesService) {}

  /** Creates a new scope. */
  @Post()
  @HttpCode(HttpStatus.CREATED)
  @Idempotent()
  @TaggedAnswer(201, ScopePropertyDto)
  @ApiProblemResponses(400, 409, 413, 415, 500, 503)
  @Needs.readUpdateOnRoot()
  @OperationOf(Operation.createScope)
  createScope(
    @RequestActor() actor: Actor,
    @Body() body: CreateScopeDto,
  ): Promise<Tagged<ScopePropertyDto>> {
    return this.scopes.create(actor, body.scopeName);
  }

  /** Lists all scopes. */
  @Get()
  @Paged(ScopesListDto)
  @ApiProblemResponses(400, 500, 503)
  @Needs.readableScopes()
  @OperationOf(Operation.listScopes)
  listScopes(@Query() query: PageQueryDto): Promise<ListAnswer<ScopePropertyDto>> {
    return this.scopes.list(query);
  }

  /** Retrieves the details of a scope. */
  @Get(':scopeName')
  @ConditionalRead(ScopePropertyDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnScope()
  @OperationOf(Operation.getScope)
  getScope(@Param('scopeName') scopeName: string): Promise<Tagged<ScopePropertyDto>> {
    return this.scopes.get(scopeName);
  }

  /** Deletes a scope that holds nothing. */
  @Delete(':scopeName')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ConditionalWrite()
  @ApiProblemResponses(400, 404, 412, 500, 503)
  @Needs.readUpdateOnRoot()
  @OperationOf(Operation.deleteScope)
  deleteScope(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @IfMatch() condition: TagCondition | undefined,
  ): Promise<void> {
    return this.scopes.delete(actor, scopeName, condition);
  }
}
