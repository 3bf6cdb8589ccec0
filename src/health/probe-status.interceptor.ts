import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';

/** A probe's answer: whether the process is alive, or whether it is ready. */
type ProbeAnswer = { liveness: boolean } | { readiness: boolean };

/**
 * A probe answers in its status code, for orchestrators and load balancers that read nothing
 * else: 503 when its answer says no (not alive, not ready), 200 otherwise.
 */
@Injectable()
export class ProbeStatusInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((answer: ProbeAnswer) => {
        const yes = 'liveness' in answer ? answer.liveness : answer.readiness;
        if (!yes) context.switchToHttp().getResponse<Response>().status(503);
        return answer;
      }),
    );
  }
}
