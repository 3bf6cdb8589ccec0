import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';
import { ListAnswer } from '../common/pagination/list-answer';
import { Permission } from './acl';
import { ACCESS_RULE, AccessRule, PathParams } from './access.decorator';
import type { AuthenticatedRequest } from './auth.guard';

/**
 * Lists show only what the caller may READ: one in-memory ACL decision per item, as the
 * answer is sent.
 */
@Injectable()
export class ReadableListInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rule = this.reflector.get<AccessRule | undefined>(ACCESS_RULE, context.getHandler());
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const list = rule?.list;
    const access = req.access;
    if (!list || !access) return next.handle();
    const params = req.params as PathParams;
    return next
      .handle()
      .pipe(
        map((answer: ListAnswer<Record<string, string>>) =>
          answer.only((item) => access.allows(list.resource(item, params), Permission.READ)),
        ),
      );
  }
}
