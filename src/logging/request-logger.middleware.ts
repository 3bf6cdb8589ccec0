import type { Request, RequestHandler, Response } from 'express';
import type { Level, Logger } from 'pino';
import { ANONYMOUS } from '../audit/actor';
import { RequestWithId } from '../common/http/request-id.middleware';
import { routeTemplate } from '../common/http/route-template';
import { METRICS_PATH } from '../metrics/metrics.controller';

/** Frequent, and only of interest when something is wrong: the probes and the scrape. */
export const QUIET_ROUTES: ReadonlySet<string> = new Set([
  '/ping',
  '/livez',
  '/readyz',
  METRICS_PATH,
]);

/** What a request line says besides its level, time and request id. */
export interface RequestLogFields {
  method: string;
  route: string;
  /** The operation of the handler that served it (`createStream`); absent when none was reached. */
  operation?: string;
  /** The path without the query string. */
  path: string;
  status: number;
  durationMs: number;
  client: string | undefined;
  principal: string;
  /** Present when the client went away before the response was complete. */
  aborted?: true;
}

const pathOf = (req: Request): string => req.originalUrl.split('?', 1)[0];
const messageOf = (req: Request, res: Response): string =>
  `${req.method} ${pathOf(req)} ${res.statusCode}`;

function requestFields(req: RequestWithId, res: Response, durationMs: number): RequestLogFields {
  return {
    method: req.method,
    route: routeTemplate(req),
    ...(req.operation ? { operation: req.operation } : {}),
    path: pathOf(req),
    status: res.statusCode,
    durationMs,
    client: req.ip ?? req.socket.remoteAddress,
    principal: req.principal ?? ANONYMOUS,
    ...(res.writableFinished ? {} : { aborted: true }),
  };
}

function levelOf(req: Request, res: Response, error?: Error): Level {
  if (QUIET_ROUTES.has(routeTemplate(req))) return 'debug';
  return error || res.statusCode >= 500 ? 'error' : 'info';
}

/**
 * One line per request when it ends, with the request id of `requestId` (which must run
 * before), the route template, the operation, status, duration and principal; never headers or
 * bodies.
 * Probes and scrapes are logged at debug level.
 */
export function requestLogger(logger: Logger): RequestHandler {
  // The line holds no header, body or `password` field: the logger's redaction, which costs on
  // every call, would find nothing in it.
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const startedAt = Date.now();
    // `close` follows `finish` when the response was sent, and comes alone when the client
    // went away first; `error` when the response failed.
    const ended = (error?: Error) => {
      res.removeListener('close', ended);
      res.removeListener('error', ended);
      const level = levelOf(req, res, error);
      if (!lines.isLevelEnabled(level)) return;
      const fields = requestFields(req as RequestWithId, res, Date.now() - startedAt);
      lines[level]({ reqId: (req as RequestWithId).id, ...fields }, messageOf(req, res));
    };
    res.on('close', ended);
    res.on('error', ended);
    next();
  };
}
