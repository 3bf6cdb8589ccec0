import { ApiSchema } from '@nestjs/swagger';
import { ScopePropertyDto } from './scope-property.dto';

@ApiSchema({ name: 'ScopesList' })
export class ScopesListDto {
  scopes: ScopePropertyDto[];
}
