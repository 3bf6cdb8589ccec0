import type { Actor } from '../audit/actor';
import { ListAnswer } from '../pagination/list-answer';
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
  Put,
  Query,
} from '@nestjs/common';
import { ApiExtension, ApiTags } from '@nestjs/swagger';
import {
  ConditionalRead,
  ConditionalWrite,
  TaggedAnswer,
} from '../conditional/conditional.decorators';
import { IfMatch } from '../conditional/conditional-headers';
import type { Tagged } from '../conditional/resource-version';
import { Idempotent } from '../idempotency/idempotent.decorator';
import type { TagCondition } from '../conditional/entity-tag';
import { Needs } from '../auth/needs';
import type { Principal } from '../auth/principal';
import { RequestAccess } from '../auth/request-access.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { Paged } from '../pagination/paged.decorator';
import { PageQueryDto } from '../pagination/page-query.dto';
import { CreateReaderGroupDto } from './dto/create-reader-group.dto';
import { ReaderGroupPropertyDto } from './dto/reader-group-property.dto';
import { ReaderGroupsListDto } from './dto/reader-groups-list.dto';
import { ReaderGroupsService } from './reader-groups.service';

@ApiTags('ReaderGroups')
@Controller('v1/scopes/:scopeName/readergroups')
export class ReaderGroupsController {
  constructor(private readonly readerGroups: ReaderGroupsService) {}

  /** Lists the reader groups of a scope. */
  @Get()
  @Paged(ReaderGroupsListDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readableReaderGroups()
  @OperationOf(Operation.listReaderGroups)
  listReaderGroups(
    @Param('scopeName') scopeName: string,
    @Query() query: PageQueryDto,
  ): Promise<ListAnswer<ReaderGroupsListDto['readerGroups'][number]>> {
    return this.readerGroups.list(scopeName, query);
  }

  /** Retrieves a reader group: its streams (those the caller may read) and online readers. */
  @Get(':readerGroupName')
  @ConditionalRead(ReaderGroupPropertyDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnReaderGroup()
  @OperationOf(Operation.getReaderGroup)
  getReaderGroup(
    @Param('scopeName') scopeName: string,
    @Param('readerGroupName') readerGroupName: string,
    @RequestAccess() access: Principal | undefined,
  ): Promise<Tagged<ReaderGroupPropertyDto>> {
    return this.readerGroups.get(scopeName, readerGroupName, access);
  }

  /** Creates a reader group (extension). */
  @Post()
  @HttpCode(HttpStatus.CREATED)
  @Idempotent()
  @ApiExtension('x-extension', true)
  @TaggedAnswer(201, ReaderGroupPropertyDto)
  @ApiProblemResponses(400, 404, 409, 413, 415, 500, 503)
  @Needs.createReaderGroup()
  @OperationOf(Operation.createReaderGroup)
  createReaderGroup(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Body() body: CreateReaderGroupDto,
  ): Promise<Tagged<ReaderGroupPropertyDto>> {
    return this.readerGroups.create(actor, scopeName, body);
  }

  /** Deletes a reader group and its internal stream (extension). */
  @Delete(':readerGroupName')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiExtension('x-extension', true)
  @ConditionalWrite()
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readUpdateOnReaderGroup()
  @OperationOf(Operation.deleteReaderGroup)
  deleteReaderGroup(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('readerGroupName') readerGroupName: string,
    @IfMatch() condition: TagCondition | undefined,
  ): Promise<void> {
    return this.readerGroups.delete(actor, scopeName, readerGroupName, condition);
  }

  /** Marks a reader online; idempotent (extension). */
  @Put(':readerGroupName/readers/:readerId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiExtension('x-extension', true)
  @ConditionalWrite()
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readUpdateOnReaderGroup()
  @OperationOf(Operation.setReaderOnline)
  setReaderOnline(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('readerGroupName') readerGroupName: string,
    @Param('readerId') readerId: string,
    @IfMatch() condition: TagCondition | undefined,
  ): Promise<void> {
    return this.readerGroups.readerOnline(actor, scopeName, readerGroupName, readerId, condition);
  }

  /** Marks a reader offline (extension). */
  @Delete(':readerGroupName/readers/:readerId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiExtension('x-extension', true)
  @ConditionalWrite()
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readUpdateOnReaderGroup()
  @OperationOf(Operation.setReaderOffline)
  setReaderOffline(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('readerGroupName') readerGroupName: string,
    @Param('readerId') readerId: string,
    @IfMatch() condition: TagCondition | undefined,
  ): Promise<void> {
    return this.readerGroups.readerOffline(actor, scopeName, readerGroupName, readerId, condition);
  }
}
