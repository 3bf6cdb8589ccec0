import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { InvalidRequestError } from '../common/domain-error';
import { MalformedConditionError, parseCondition, TagCondition } from './entity-tag';

/**
 * Reads a conditional header. A malformed one is a 400 naming the header: RFC 9110 leaves its
 * handling open, and a client that sent it meant a condition it could not express; refusing it
 * tells that client, where ignoring it would change things the client meant to protect.
 */
export function conditionOf(
  header: 'If-Match' | 'If-None-Match',
  req: Request,
): TagCondition | undefined {
  try {
    return parseCondition(req.headers[header.toLowerCase()]);
  } catch (error) {
    if (!(error instanceof MalformedConditionError)) throw error;
    throw InvalidRequestError.of(header, `${header} must be * or a list of entity tags`);
  }
}

/** A handler's parameter: the request's `If-Match`, parsed (undefined when absent). */
export const IfMatch = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  conditionOf('If-Match', context.switchToHttp().getRequest<Request>()),
);
