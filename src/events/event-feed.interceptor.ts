import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';
import { weightedElements } from '../http/header-list';
import { eventJson } from './change-event';
import { EventStream } from './event-stream';
import type { FeedPage } from './events.service';

export const EVENT_STREAM_TYPE = 'text/event-stream';

/** Whether a request asks for Server-Sent Events rather than a page (and not with `q=0`). */
export const wantsEventStream = (accept: string | undefined): boolean =>
  weightedElements(accept).some(({ value, weight }) => value === EVENT_STREAM_TYPE && weight > 0);

/**
 * Sends what the change feed's route answers: a page as JSON (its events are kept as the JSON
 * they are sent as, so they are not parsed to be written again), or an {@link EventStream} as
 * `text/event-stream`, uncached and unbuffered by proxies, cut off when it fails.
 */
@Injectable()
export class EventFeedInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((answer: FeedPage | EventStream) => {
        if (answer instanceof EventStream) {
          res.setHeader('Cache-Control', 'no-cache, no-transform');
          res.setHeader('X-Accel-Buffering', 'no');
          return new StreamableFile(answer, { type: EVENT_STREAM_TYPE }).setErrorHandler(() =>
            res.destroy(),
          );
        }
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        const events = answer.events.map(eventJson).join(',');
        return `{"events":[${events}],"position":"${answer.position}"}`;
      }),
    );
  }
}
