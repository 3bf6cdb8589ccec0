import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import type { Response } from 'express';
import { from, mergeMap, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import type { Db } from '../../database/db';
import { InjectDb } from '../../database/db';
import { snapshotReadable } from '../../database/snapshot-readable';
import { ListAnswer } from './list-answer';

/** As Express's `res.json()` types its answers. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends a list's answer ({@link ListAnswer}): a page already read as a JSON body; a whole list
 * as a stream of its JSON, read a batch of `LIST_BATCH_SIZE` rows at a time in one snapshot,
 * so that memory does not grow with the length of the list.
 */
@Injectable()
export class ListAnswerInterceptor implements NestInterceptor {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      mergeMap((answer: unknown) => {
        if (!(answer instanceof ListAnswer)) return [answer];
        if (!answer.isUnread) return [answer.toBody()];
        return from(this.send(answer, context.switchToHttp().getResponse<Response>()));
      }),
    );
  }

  private async send(answer: ListAnswer, res: Response): Promise<StreamableFile> {
    const stream = await snapshotReadable(this.db, () => answer.json(this.config.LIST_BATCH_SIZE));
    // Headers are sent: a failure from here on can only cut the answer short, never complete it.
    return new StreamableFile(stream, { type: JSON_TYPE }).setErrorHandler(() => res.destroy());
  }
}
