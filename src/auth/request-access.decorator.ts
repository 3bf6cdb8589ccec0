import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from './access.guard';
import type { Principal } from './auth.service';

/** A handler's parameter: who the request comes from, or undefined while AUTH_ENABLED is off. */
export const RequestAccess = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().access,
);
