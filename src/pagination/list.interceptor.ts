import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import type { Response } from 'express';
import { from, mergeMap, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { snapshotReadable } from '../database/snapshot-readable';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import type { RequestWithId } from '../http/request-context';
import { ListAnswer } from './list-answer';
import { nextPageLink } from './next-page-link';

/** As Express's `res.json()` types its answers. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends what a list route's handler answers ({@link ListAnswer}), attached by `@Paged()`:
 * - only the items the caller may see (with authentication on, the access guard says which);
 * - a page that has a next one links it (`Link: <...>; rel="next"`, RFC 8288);
 * - a page already read as a JSON body; a whole list as a stream of its JSON, read a batch of
 *   `LIST_BATCH_SIZE` rows at a time in one snapshot, so memory does not grow with its length.
 */
@Injectable()
export class ListInterceptor implements NestInterceptor {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<RequestWithId>();
    return next.handle().pipe(
      mergeMap((answer: unknown) => {
        if (!(answer instanceof ListAnswer)) {
          throw new Error(`${context.getHandler().name} must answer a ListAnswer`);
        }
        const shown = req.visible ? answer.only(req.visible) : answer;
        const res = http.getResponse<Response>();
        if (shown.next) {
          const { continuationToken, limit } = shown.next;
          res.setHeader('Link', nextPageLink(req.originalUrl, continuationToken, limit));
        }
        if (!shown.isUnread) return [shown.toBody()];
        return from(this.send(shown, res));
      }),
    );
  }

  private async send(answer: ListAnswer, res: Response): Promise<StreamableFile> {
    const stream = await snapshotReadable(this.db, () => answer.json(this.config.LIST_BATCH_SIZE));
    // Headers are sent: a failure from here on can only cut the answer short, never complete it.
    return new StreamableFile(stream, { type: JSON_TYPE }).setErrorHandler(() => res.destroy());
  }
}
