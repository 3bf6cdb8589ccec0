import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A caller's id is kept when it is short and harmless to echo; otherwise a new one is made. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What this service adds to an Express request; declared once, here. */
export interface RequestWithId extends Request {
  /** Set by {@link requestId} on every request, first of all. */
  id: string;
  /**
   * Who made the request: set by the authentication guard once the credentials are checked
   * (the account's name); absent for anonymous requests. Logs show `anonymous` then.
   */
  principal?: string;
  /**
   * The operation of the handler Nest matched (`createStream`): set by `OperationGuard`, first
   * of the guards. Absent when no handler was reached (unknown routes, bodies the edge refused).
   */
  operation?: string;
}

/** Gives every request an id, echoed in `X-Request-Id` on every response (errors included). */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.header(REQUEST_ID_HEADER);
  const id = given && ACCEPTABLE_ID.test(given) ? given : randomUUID();
  (req as RequestWithId).id = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
}
