import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';
import { Permission } from './acl';
import { ACCESS_RULE, AccessRule, PathParams } from './access.decorator';
import type { AuthenticatedRequest } from './auth.guard';

/**
 * Lists show only what the caller may READ: one in-memory ACL decision per item, on the
 * answer the service built.
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
    return next.handle().pipe(
      map((body: Record<string, Array<Record<string, string>>>) => ({
        ...body,
        [list.key]: body[list.key].filter((item) =>
          access.allows(list.resource(item, params), Permission.READ),
        ),
      })),
    );
  }
}
