import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { RequestWithId } from '../http/request-context';

/** The principal of a request that no authentication named. */
export const ANONYMOUS = 'anonymous';

/** Who asked for a change: what the audit trail records of the request. */
export interface Actor {
  principal: string;
  clientAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** The actor of a request, as the edge knows it once authentication has run. */
export function actorOf(req: RequestWithId): Actor {
  return {
    principal: req.principal ?? ANONYMOUS,
    clientAddress: req.ip ?? null,
    userAgent: req.headers['user-agent']?.slice(0, 512) ?? null,
    requestId: req.id ?? null,
  };
}

/** A handler's parameter: the {@link Actor} of the request it serves. */
export const RequestActor = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Actor =>
    actorOf(context.switchToHttp().getRequest<RequestWithId>()),
);
