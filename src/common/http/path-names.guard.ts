import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../errors/domain-error';
import { canExist } from '../names-lookup';

/** What "not found" means for each name a path can hold, in the order paths nest them. */
const NOT_FOUND_CODE_OF_PARAM: Record<string, string> = {
  scopeName: 'SCOPE_NOT_FOUND',
  streamName: 'STREAM_NOT_FOUND',
  readerGroupName: 'READER_GROUP_NOT_FOUND',
  readerId: 'READER_NOT_ONLINE',
};

export class NameNotFoundError extends DomainError {
  readonly kind = 'not-found';

  constructor(
    readonly code: string,
    param: string,
  ) {
    super(`No resource has that ${param}`);
  }
}

/**
 * Names in paths are not validated: an invalid one is simply not found. A name that no resource
 * can have (a NUL, which PostgreSQL text cannot hold, or an impossible length) is answered here,
 * for every route at once, before any query is made.
 */
@Injectable()
export class PathNamesGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const params = context.switchToHttp().getRequest<Request>().params ?? {};
    for (const [param, code] of Object.entries(NOT_FOUND_CODE_OF_PARAM)) {
      const value = params[param];
      if (typeof value === 'string' && !canExist(value)) throw new NameNotFoundError(code, param);
    }
    return true;
  }
}
