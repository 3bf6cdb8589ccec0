import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { defer, lastValueFrom, Observable } from 'rxjs';
import { actorOf } from '../audit/actor';
import { Problem, ReplayedProblem, toProblem } from '../http/problem';
import type { RequestWithId } from '../http/request-context';
import {
  bodyDigest,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyOf,
  isReplayableStatus,
} from './idempotency-key';
import { KeyedRequest, StoredAnswer } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/** The headers of an answer that belong to it (and are given again with it). */
const KEPT_HEADERS = ['ETag', 'Location'];

function keptHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/** A failure's problem document as kept: what the exception filter renders from it. */
function problemAnswer(error: unknown, requestId: string): StoredAnswer | undefined {
  // Unexpected failures (500) are never kept, so what is kept has no stack to hide.
  const problem = toProblem(error);
  if (!isReplayableStatus(problem.status)) return undefined;
  return { status: problem.status, body: JSON.stringify({ ...problem, requestId }), headers: {} };
}

/** Sends a kept answer again, marked as such; a kept failure goes through the filter again. */
function replay(res: Response, answer: StoredAnswer): unknown {
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  if (answer.status >= 400) {
    throw new ReplayedProblem(JSON.parse(answer.body ?? '{}') as Problem);
  }
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  return answer.body === null ? undefined : (JSON.parse(answer.body) as unknown);
}

/**
 * `Idempotency-Key` on a POST (docs/extensions.md section 3), attached by `@Idempotent()`: the
 * route's handler runs inside the transaction that keeps its answer, which the services' own
 * transactions join. A request without the header passes through untouched.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<RequestWithId>();
    const key = idempotencyKeyOf(req.headers['idempotency-key']);
    if (key === undefined) return next.handle();
    return defer(async () => {
      const res = context.switchToHttp().getResponse<Response>();
      const request: KeyedRequest = {
        principal: actorOf(req).principal,
        key,
        method: req.method,
        path: req.originalUrl,
        bodyDigest: bodyDigest(req.body),
      };
      const served = await this.idempotency.serve(request, {
        // Called inside the transaction: the handler inherits its async context from here.
        handle: async () => {
          const value: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
          const body = value === undefined ? null : JSON.stringify(value);
          return { value, answer: { status: res.statusCode, body, headers: keptHeaders(res) } };
        },
        failureAnswer: (error) => problemAnswer(error, req.id),
      });
      return 'replayed' in served ? replay(res, served.replayed) : served.handled;
    });
  }
}
