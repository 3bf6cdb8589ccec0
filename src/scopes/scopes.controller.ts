import type { Actor } from '../audit/actor';
import { ListAnswer } from '../common/pagination/list-answer';
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
  Res,
  Query,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  ApiConditionalRead,
  ApiConditionalWrite,
  ApiTaggedResponse,
} from '../common/conditional/api-conditional';
import {
  IfMatch,
  IfNoneMatch,
  unlessNotModified,
  withEntityTag,
} from '../common/conditional/conditional-headers';
import type { TagCondition } from '../common/conditional/entity-tag';
import { Needs } from '../auth/needs';
import { ApiProblemResponses } from '../common/http/api-problem-responses';
import { Paged } from '../common/pagination/paged.decorator';
import { PageQueryDto } from '../common/pagination/page-query.dto';
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
  @ApiTaggedResponse(201, ScopePropertyDto)
  @ApiProblemResponses(400, 409, 413, 415, 500, 503)
  @Needs.readUpdateOnRoot()
  @OperationOf(Operation.createScope)
  async createScope(
    @RequestActor() actor: Actor,
    @Body() body: CreateScopeDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ScopePropertyDto> {
    return withEntityTag(res, await this.scopes.create(actor, body.scopeName));
  }

  /** Lists all scopes. */
  @Get()
  @Paged(ScopesListDto)
  @ApiProblemResponses(400, 500, 503)
  @Needs.readableScopes()
  @OperationOf(Operation.listScopes)
  listScopes(@Query() query: PageQueryDto): Promise<ListAnswer<ScopesListDto['scopes'][number]>> {
    return this.scopes.list(query);
  }

  /** Retrieves the details of a scope. */
  @Get(':scopeName')
  @ApiConditionalRead(ScopePropertyDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnScope()
  @OperationOf(Operation.getScope)
  async getScope(
    @Param('scopeName') scopeName: string,
    @IfNoneMatch() condition: TagCondition | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ScopePropertyDto> {
    return unlessNotModified(res, condition, await this.scopes.get(scopeName));
  }

  /** Deletes a scope that holds nothing. */
  @Delete(':scopeName')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiConditionalWrite()
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
