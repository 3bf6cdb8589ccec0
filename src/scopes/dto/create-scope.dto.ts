import { ApiSchema } from '@nestjs/swagger';
import { IsScopeName } from '../../common/validators';

@ApiSchema({ name: 'CreateScopeRequest' })
export class CreateScopeDto {
  /**
   * 1 to 255 characters of A-Z a-z 0-9 . - ; names starting with `_` are reserved.
   * @example "sales"
   */
  @IsScopeName()
  scopeName: string;
}
