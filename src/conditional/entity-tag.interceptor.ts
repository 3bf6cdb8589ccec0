import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { conditionOf } from './conditional-headers';
import { notModified } from './entity-tag';
import { Tagged } from './resource-version';

/**
 * Sends what a route's handler answers as a {@link Tagged} value: its body, with its entity
 * tag as `ETag`. A read (GET, HEAD) whose `If-None-Match` names the tag (weak comparison) is a
 * 304 with the tag alone. Attached by the routes that answer one resource (see
 * `conditional.decorators.ts`).
 */
@Injectable()
export class EntityTagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    // Read first: a malformed header is refused before the handler runs.
    const condition =
      req.method === 'GET' || req.method === 'HEAD' ? conditionOf('If-None-Match', req) : undefined;
    return next.handle().pipe(
      map((answer: unknown) => {
        if (!(answer instanceof Tagged)) {
          throw new Error(`${context.getHandler().name} must answer a Tagged value`);
        }
        const res = http.getResponse<Response>();
        res.setHeader('ETag', answer.etag);
        if (!notModified(condition, answer.etag)) return answer.body as unknown;
        res.status(304);
        // Nothing to send: Express sends the bare 304.
        return undefined;
      }),
    );
  }
}
