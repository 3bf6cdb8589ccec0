import { ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsOptional, ValidateNested } from 'class-validator';
import { EachElementIsObject, IsScopeName } from '../common/validators';
import { CreateReaderGroupDto } from '../reader-groups/dto/create-reader-group.dto';
import { CreateStreamDto } from '../streams/dto/create-stream.dto';

@ApiSchema({ name: 'ApplyScope' })
export class ApplyScopeDto {
  /** @example "sales" */
  @IsScopeName()
  scopeName: string;

  /** Each stream takes the body of `CreateStreamRequest`, with the defaults of create. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @EachElementIsObject()
  @Type(() => CreateStreamDto)
  streams?: CreateStreamDto[];

  /** Created when missing; an existing group that reads other streams is a conflict. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @EachElementIsObject()
  @Type(() => CreateReaderGroupDto)
  readerGroups?: CreateReaderGroupDto[];
}

/** Extension: a desired state for `POST /v1/apply`. */
@ApiSchema({ name: 'ApplyDocument' })
export class ApplyDocumentDto {
  @IsArray()
  @ValidateNested({ each: true })
  @EachElementIsObject()
  @Type(() => ApplyScopeDto)
  scopes: ApplyScopeDto[];

  /** Remove, inside each listed scope, the user streams and reader groups not listed. */
  @IsOptional()
  @IsBoolean()
  prune?: boolean;
}
