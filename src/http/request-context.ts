import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { OPERATION_ID, OperationId } from '../common/operations';

/** What this service adds to an Express request; declared once, here. */
export interface RequestWithId extends Request {
  /** Set by the `requestId` middleware on every request, first of all. */
  id: string;
  /**
   * Who made the request: set by the access guard once the credentials are checked (the
   * account's name); absent for anonymous requests. Logs show `anonymous` then.
   */
  principal?: string;
  /**
   * The operation of the handler Nest matched (`createStream`), noted by the first guard that
   * runs ({@link noteOperation}); absent when no handler was reached (unknown routes, bodies the
   * edge refused). The log line, the metrics, the access check and its audit row read it.
   */
  operation?: string;
  /**
   * Of a list route with authentication on: whether the caller may see an item of the list
   * (READ on it). Set by the access guard; the list interceptor leaves out the items it refuses.
   */
  visible?: (item: object) => boolean;
}

const reflector = new Reflector();

/**
 * The operation a matched handler serves: its id, or, for routes outside the API document
 * (health, probes, metrics), the handler's name.
 */
function operationOf(context: ExecutionContext): string {
  const handler = context.getHandler();
  return reflector.get<OperationId | undefined>(OPERATION_ID, handler) ?? handler.name;
}

/** The request's operation, found once per request where Nest first knows the handler. */
export function noteOperation(context: ExecutionContext): string {
  const req = context.switchToHttp().getRequest<RequestWithId>();
  return (req.operation ??= operationOf(context));
}
