import type { Request, RequestHandler, Response } from 'express';
import type { Level, Logger } from 'pino';
import { ANONYMOUS } from '../audit/actor';
import type { RequestWithId } from '../http/request-context';
import { routeTemplate } from '../http/route-template';
import { activeTraceFields } from '../tracing/trace-fields';

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

function levelOf(req: Request, res: Response, quiet: ReadonlySet<string>, error?: Error): Level {
  if (quiet.has(routeTemplate(req))) return 'debug';
  return error || res.statusCode >= 500 ? 'error' : 'info';
}

/**
 * One line per request when it ends, with the request id of `requestId` (which must run
 * before), the route template, the operation, status, duration and principal; never headers or
 * bodies. With traces on, the line also carries its request's `trace_id` and `span_id` (the
 * server span's: the middleware before the handler is no span of its own, docs/tracing.md).
 * The routes in `quiet` (frequent, and only of interest when something is wrong: probes, the
 * scrape) are logged at debug level.
 */
export function requestLogger(
  logger: Logger,
  quiet: ReadonlySet<string> = new Set(),
): RequestHandler {
  // The line holds no header, body or `password` field: the logger's redaction, which costs on
  // every call, would find nothing in it.
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const startedAt = Date.now();
    const traced = activeTraceFields();
    // `close` follows `finish` when the response was sent, and comes alone when the client
    // went away first; `error` when the response failed.
    const ended = (error?: Error) => {
      res.removeListener('close', ended);
      res.removeListener('error', ended);
      const level = levelOf(req, res, quiet, error);
      if (!lines.isLevelEnabled(level)) return;
      const fields = requestFields(req as RequestWithId, res, Date.now() - startedAt);
      lines[level]({ reqId: (req as RequestWithId).id, ...traced, ...fields }, messageOf(req, res));
    };
    res.on('close', ended);
    res.on('error', ended);
    next();
  };
}
