import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
  create(@Body() body: CreateScopeDto): Promise<ScopePropertyDto> {
    return this.scopes.create(body.scopeName);
  }

  /** Lists all scopes. */
  @Get()
  list(): Promise<ScopesListDto> {
    return this.scopes.list();
  }

  /** Retrieves the details of a scope. */
  @Get(':scopeName')
  get(@Param('scopeName') scopeName: string): Promise<ScopePropertyDto> {
    return this.scopes.get(scopeName);
  }

  /** Deletes a scope that holds nothing. */
  @Delete(':scopeName')
  @HttpCode(HttpStatus.NO_CONTENT)
  delete(@Param('scopeName') scopeName: string): Promise<void> {
    return this.scopes.delete(scopeName);
  }
}
