import { ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'ScopeProperty' })
export class ScopePropertyDto {
  /** @example "sales" */
  scopeName: string;
}
