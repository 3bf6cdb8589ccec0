import { ApiSchema } from '@nestjs/swagger';
import { PageDto } from '../../pagination/page.dto';
import { ScopePropertyDto } from './scope-property.dto';

@ApiSchema({ name: 'ScopesList' })
export class ScopesListDto extends PageDto {
  scopes: ScopePropertyDto[];
}
