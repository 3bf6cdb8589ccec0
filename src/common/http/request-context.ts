import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { RequestWithId } from './request-id.middleware';

const storage = new AsyncLocalStorage<RequestWithId>();

/**
 * Keeps the request reachable from everything that runs on its behalf, so a service can say
 * who asked (the audit trail) without every method taking the request as an argument.
 */
export function requestContext(req: Request, _res: Response, next: NextFunction): void {
  storage.run(req as RequestWithId, next);
}

/** The request being served, if any (none in a background task or a script). */
export const currentRequest = (): RequestWithId | undefined => storage.getStore();
