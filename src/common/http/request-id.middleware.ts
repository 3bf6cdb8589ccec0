import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A caller's id is kept when it is short and harmless to echo; otherwise a new one is made. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestWithId extends Request {
  id?: string;
}

/** Gives every request an id, echoed in `X-Request-Id` on every response (errors included). */
export function requestId(req: RequestWithId, res: Response, next: NextFunction): void {
  const given = req.header(REQUEST_ID_HEADER);
  req.id = given && ACCEPTABLE_ID.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, req.id);
  next();
}
