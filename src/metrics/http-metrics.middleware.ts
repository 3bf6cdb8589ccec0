import type { RequestHandler } from 'express';
import type { RequestWithId } from '../http/request-context';
import { routeTemplate } from '../http/route-template';
import { METRICS_PATH } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * Counts and times every request by method, route template, operation and status, and keeps
 * the number in flight. Scrapes are left out: they observe the traffic rather than make it.
 */
export function httpMetrics(metrics: MetricsService): RequestHandler {
  return (req, res, next) => {
    // The route lookup settles what Express will route to; the prefix spares it to the others.
    const mayBeScrape = req.path.toLowerCase().startsWith(METRICS_PATH);
    if (mayBeScrape && routeTemplate(req) === METRICS_PATH) return next();
    const ended = metrics.requestStarted();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      const { method, operation } = req as RequestWithId;
      ended({ method, route: routeTemplate(req), operation, status: res.statusCode });
    };
    // `finish` when the response was sent, `close` alone when the client went away first.
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}
