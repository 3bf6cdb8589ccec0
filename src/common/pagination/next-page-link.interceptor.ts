import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { ListAnswer } from './list-answer';
import { nextPageLink } from './next-page-link';
import { PAGED } from './paged.decorator';
import { DEFAULT_PAGE_LIMIT } from './paginator';

/** A page of a {@link Paged} list that has a next one links it in the `Link` header. */
@Injectable()
export class NextPageLinkInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.reflector.get<boolean | undefined>(PAGED, context.getHandler())) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    return next.handle().pipe(
      map((answer: ListAnswer) => {
        if (answer.continuationToken !== undefined) {
          // The raw query: the validation pipe has checked it (else there is no page to link).
          const { limit } = req.query;
          http
            .getResponse<Response>()
            .setHeader(
              'Link',
              nextPageLink(
                req.originalUrl,
                answer.continuationToken,
                typeof limit === 'string' ? Number(limit) : DEFAULT_PAGE_LIMIT,
              ),
            );
        }
        return answer;
      }),
    );
  }
}
