import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { operationOf } from '../operations';
import type { RequestWithId } from './request-id.middleware';

/**
 * Notes on the request which operation serves it, where Nest first knows the handler, so that
 * the request's log line and metrics name it without matching the path again. Refuses nothing;
 * it runs before the other guards so that their refusals are named too.
 */
@Injectable()
export class OperationGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    context.switchToHttp().getRequest<RequestWithId>().operation = operationOf(context);
    return true;
  }
}
