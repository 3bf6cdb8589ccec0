import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { ListOf } from '../common/list-caps';
import { IsScopeName } from '../common/validators';
import { ScopePolicyDto } from '../policies/dto/scope-policy.dto';
import { CreateReaderGroupDto } from '../reader-groups/dto/create-reader-group.dto';
import { CreateStreamDto } from '../streams/dto/create-stream.dto';
import { MAX_DOCUMENT_RESOURCES } from './desired-state';

/*
 * A document is validated without dropping what it does not know: a misspelt field at any level
 * (`streamtags`, `prun`) is a 400 naming its path, since dropped it would change the plan
 * (docs/extensions.md section 5).
 */

@ApiSchema({ name: 'ApplyScope' })
export class ApplyScopeDto {
  @ApiProperty({ type: String, example: 'sales' })
  @IsScopeName()
  scopeName: string;

  /** Each stream takes the body of `CreateStreamRequest`, with the defaults of create. */
  @IsOptional()
  @ListOf(() => CreateStreamDto, MAX_DOCUMENT_RESOURCES, 'streams')
  streams?: CreateStreamDto[];

  /** Created when missing; an existing group that reads other streams is a conflict. */
  @IsOptional()
  @ListOf(() => CreateReaderGroupDto, MAX_DOCUMENT_RESOURCES, 'reader groups')
  readerGroups?: CreateReaderGroupDto[];

  /**
   * The scope's policy, the body of `PUT /v1/scopes/{s}/policy`: it replaces the stored one
   * (`{}` clears it). Absent, the stored policy is left as it is, `prune` or not.
   */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ScopePolicyDto)
  policy?: ScopePolicyDto;
}

/**
 * Extension: a desired state for `POST /v1/apply`: at most 10,000 resources (scopes, streams
 * and reader groups) in all.
 */
@ApiSchema({ name: 'ApplyDocument' })
export class ApplyDocumentDto {
  @ListOf(() => ApplyScopeDto, MAX_DOCUMENT_RESOURCES, 'scopes')
  scopes: ApplyScopeDto[];

  /** Remove, inside each listed scope, the user streams and reader groups not listed. */
  @IsOptional()
  @IsBoolean()
  prune?: boolean;
}
